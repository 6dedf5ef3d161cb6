package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import org.flinkaccelerator.BuildInfo;

/**
 * The one check on the response region path a sidecar hands over when it attaches. The JVM maps
 * that file and deletes it when the sidecar stops, so it takes only what a sidecar creates: a
 * regular file (not a symbolic link), named {@code flink-accelerator-response-<pid>-<32 hex digits>},
 * in the directory of the JVM's own request region, owned by the user that created the request
 * region (the JVM's). Anything else is refused before it is opened, and left untouched.
 *
 * <p>The file is opened later without following links, so a link swapped in after this check
 * cannot be mapped, and deleting a path in the region directory never deletes a file elsewhere.
 */
final class ResponseRegionCheck {
    private ResponseRegionCheck() {}

    /** The offered path if the JVM may map and later delete it; otherwise a {@link SidecarSetupException}. */
    static Path trusted(String offered, Path requestRegion) {
        Path directory = requestRegion.getParent();
        Path path;
        try {
            path = Path.of(offered);
        } catch (InvalidPathException | NullPointerException e) {
            throw refused(offered, requestRegion, "it is not a valid path");
        }
        if (!directory.equals(path.getParent())) {
            throw refused(offered, requestRegion, "it is not in " + directory);
        }
        if (!SharedRegion.isRegionName(path.getFileName().toString(), "response")) {
            throw refused(offered, requestRegion, "its name is not a response region's");
        }
        PosixFileAttributes attributes;
        UserPrincipal jvmUser;
        try {
            attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            jvmUser = Files.getOwner(requestRegion, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw refused(offered, requestRegion, "its attributes cannot be read (" + e + ")");
        }
        if (attributes.isSymbolicLink()) {
            throw refused(offered, requestRegion, "it is a symbolic link");
        }
        if (!attributes.isRegularFile()) {
            throw refused(offered, requestRegion, "it is not a regular file");
        }
        if (!attributes.owner().equals(jvmUser)) {
            throw refused(offered, requestRegion, "it is owned by " + attributes.owner().getName() + ", not by "
                    + jvmUser.getName());
        }
        return path;
    }

    private static SidecarSetupException refused(String offered, Path requestRegion, String reason) {
        return new SidecarSetupException("Refused the response region the Python sidecar offered: " + offered
                + " (" + reason + "). Expected a regular file named flink-accelerator-response-<pid>-<32 hex"
                + " digits> in " + requestRegion.getParent() + ", next to the request region " + requestRegion
                + ", owned by the TaskManager's user. The sidecar is not trusted: the file was not opened and is"
                + " left as it is. Check that accelerator.python.executable runs an unmodified flink-accelerator "
                + BuildInfo.version() + " package and that no other process or user creates files in "
                + requestRegion.getParent() + ".");
    }
}
