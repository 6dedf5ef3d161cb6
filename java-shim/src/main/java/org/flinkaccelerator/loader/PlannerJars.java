package org.flinkaccelerator.loader;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.table.api.TableException;
import org.apache.flink.util.FileUtils;

/**
 * Copies jars embedded as class-path resources to files a URLClassLoader can open. Like stock
 * Flink, into the first temp directory of an empty Configuration (java.io.tmpdir; io.tmp.dirs
 * is not visible here), deleted when the JVM exits.
 */
public final class PlannerJars {
    /** The stock planner, embedded in flink-table-planner-loader-<release>.jar of every supported release. */
    public static final String STOCK_PLANNER_RESOURCE = "flink-table-planner.jar";

    private PlannerJars() {}

    /** Extracts {@code resource} seen by {@code loader}; fails with {@code hint} when it is missing. */
    public static URL extract(ClassLoader loader, String resource, String filePrefix, String hint) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new TableException("Resource " + resource + " not found on the class path: " + hint);
            }
            Path directory = FileUtils.getTargetPathIfContainsSymbolicPath(
                    Paths.get(ConfigurationUtils.parseTempDirectories(new Configuration())[0]));
            Files.createDirectories(directory);
            Path file = directory.resolve(filePrefix + "_" + UUID.randomUUID() + ".jar");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            return file.toUri().toURL();
        } catch (IOException e) {
            throw new TableException("Could not extract " + resource + " for the table planner's class loader.", e);
        }
    }

    /** True when {@code resource} is on {@code loader}'s class path. */
    public static boolean present(ClassLoader loader, String resource) {
        return loader.getResource(resource) != null;
    }
}
