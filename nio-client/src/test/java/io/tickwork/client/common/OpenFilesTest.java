package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tickwork.client.Cli;
import org.junit.jupiter.api.Test;

/**
 * A connection count one process cannot hold is refused before a tool starts, with the figures
 * and what to do instead; {@code bench} and {@code pingpong} (whose {@code run} holds both ends of
 * every connection) through the launcher, on this machine's limit.
 */
class OpenFilesTest {

    @Test
    void aCountAboveTheLimitLessTheJvmsShareIsRefused() {
        assertEquals(19_000, OpenFiles.connections(20_000));
        assertEquals(500, OpenFiles.connections(1_000), "a small limit keeps half for the JVM");
        assertEquals(Long.MAX_VALUE, OpenFiles.connections(-1));
        assertDoesNotThrow(() -> OpenFiles.check("x", 19_000, 20_000, "remedy"));
        UsageException e = assertThrows(UsageException.class, () -> OpenFiles.check("x", 19_001, 20_000, "remedy"));
        assertEquals(
                "x needs 19001 descriptors in one process, more than it can hold: at most 19000 (open-file limit"
                        + " 20000 less 1000 for the JVM); remedy",
                e.getMessage());
        assertDoesNotThrow(() -> OpenFiles.check("x", Long.MAX_VALUE, -1, "remedy"));
        e = assertThrows(UsageException.class, () -> OpenFiles.check("x", 513, 1_024, "remedy"));
        assertTrue(e.getMessage().contains("at most 512 (open-file limit 1024 less 512 for the JVM)"), e.getMessage());
    }

    @Test
    void benchAndPingPongRefuseWhatThisMachineCannotHold() {
        long most = OpenFiles.connections(OpenFiles.limit());
        assumeTrue(most < 38_000, "an open-file limit these tools' ranges can exceed (pingpong -c: 20,000)");
        Cli.Run run = Cli.run("bench", "-c", Long.toString(most + 1), "-D", "1s", "http://127.0.0.1:9/");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("more than it can hold: at most " + most), run.err());
        Cli.assertNoStackTrace(run);
        run = Cli.run("pingpong", "run", "-c", Long.toString(most / 2 + 1), "-D", "1s");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("needs " + 2 * (most / 2 + 1) + " descriptors"), run.err());
        Cli.assertNoStackTrace(run);
    }
}
