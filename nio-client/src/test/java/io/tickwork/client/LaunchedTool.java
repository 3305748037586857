package io.tickwork.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LoadTool} command line in a JVM of its own (64 MB heap, C1 only), its standard error
 * merged into its output: for what only a process shows, a signal and the exit status after the
 * shutdown hooks. {@link #close()} kills it if it still runs.
 */
public final class LaunchedTool implements AutoCloseable {
    private final Process process;
    private final BufferedReader output;

    private LaunchedTool(Process process) {
        this.process = process;
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    public static LaunchedTool start(String... args) throws IOException {
        String[] command = new String[6 + args.length];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        command[1] = "-Xmx64m";
        command[2] = "-XX:TieredStopAtLevel=1";
        command[3] = "-cp";
        command[4] = System.getProperty("java.class.path");
        command[5] = LoadTool.class.getName();
        System.arraycopy(args, 0, command, 6, args.length);
        return new LaunchedTool(
                new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Reads its output up to and including the first line containing {@code text}; fails if it ends first. */
    public void awaitLine(String text) throws IOException {
        StringBuilder seen = new StringBuilder();
        for (String line; (line = output.readLine()) != null; ) {
            if (line.contains(text)) {
                return;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("ended without a line containing '" + text + "': " + seen);
    }

    /**
     * SIGTERM (through its handle: {@code Process.destroy()} would also close our end of its
     * output), then the rest of its output, read until it exits; fails if it runs 20 s on.
     */
    public String terminate() throws IOException, InterruptedException {
        process.toHandle().destroy();
        StringBuilder rest = new StringBuilder();
        for (String line; (line = output.readLine()) != null; ) {
            rest.append(line).append('\n');
        }
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "still running 20 s after SIGTERM: " + rest);
        return rest.toString();
    }

    public int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
