import java.nio.charset.StandardCharsets;
import org.flinkaccelerator.shaded.arrow.memory.BufferAllocator;
import org.flinkaccelerator.shaded.arrow.memory.RootAllocator;
import org.flinkaccelerator.shaded.arrow.vector.VarBinaryVector;
import org.flinkaccelerator.shaded.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.sidecar.SidecarProcess;
import org.flinkaccelerator.sidecar.SidecarSettings;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * A stand-in TaskManager for test_sidecar_process.py, run from source against the shim jar: starts
 * a sidecar with the interpreter in args[0], sends one batch through the identity stage, prints
 * "ready <sidecar pid> <rows back>", then holds the sidecar until its stdin closes.
 */
public class SidecarPeer {
    public static void main(String[] args) throws Exception {
        SidecarSettings settings = new SidecarSettings(args[0], SidecarSettings.DEFAULT_CALL_TIMEOUT,
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        try (BufferAllocator allocator = new RootAllocator();
                SidecarProcess sidecar = SidecarProcess.start(settings);
                SidecarStage stage = SidecarStage.open(sidecar, "{\"protocol\": 1, \"kind\": \"identity\"}", allocator);
                VarBinaryVector value = new VarBinaryVector("value", allocator)) {
            value.allocateNew(3);
            for (int i = 0; i < 3; i++) {
                value.setSafe(i, ("record " + i).getBytes(StandardCharsets.UTF_8));
            }
            value.setValueCount(3);
            try (VectorSchemaRoot batch = VectorSchemaRoot.of(value); VectorSchemaRoot back = stage.process(batch)) {
                System.out.println("ready " + sidecar.pid() + " " + back.getRowCount());
            }
            System.in.readAllBytes();
        }
        System.out.println("closed");
    }
}
