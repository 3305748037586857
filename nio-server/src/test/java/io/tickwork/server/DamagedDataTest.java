package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server refuses a damaged {@code --data} file with one line naming it, and exits non-zero. */
class DamagedDataTest {
    @TempDir
    Path tmp;

    @Test
    void aDamagedDataFileStopsTheServerWithOneLine() throws Exception {
        byte[] b;
        try (InputStream in = io.tickwork.server.dict.Dictionary.class.getResourceAsStream("wordnet31.twd")) {
            b = in.readAllBytes();
        }
        for (int i = 0; i < 2_000; i++) {
            int at = 96 + (int) ((i * 2_654_435_761L) % (b.length - 96));
            b[at] ^= 0x5A;
        }
        Path file = Files.write(tmp.resolve("bad.twd"), b);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                new String[] {"--port", "0", "--data", file.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, message);
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.contains(file + ": damaged"), message);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing served, no start line");
    }
}
