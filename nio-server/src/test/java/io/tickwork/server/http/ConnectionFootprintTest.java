package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.vm.VM;

/**
 * An idle connection costs the JDK's channel and key objects plus one {@link Connection}; the
 * server's share of that is this object alone (no buffer is held while idle), so its size is
 * part of the per-connection figure the server publishes.
 */
class ConnectionFootprintTest {

    @Test
    void connectionIs64BytesWithCompressedReferences() {
        assumeTrue(
                VM.current().objectHeaderSize() == 12 && VM.current().sizeOfField("java.lang.Object") == 4,
                "the figure is stated for a 64-bit VM with compressed references and class pointers");
        ClassLayout layout = ClassLayout.parseClass(Connection.class);
        assertEquals(64, layout.instanceSize(), layout::toPrintable);
    }
}
