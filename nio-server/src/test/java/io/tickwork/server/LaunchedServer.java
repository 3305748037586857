package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The dictionary server with {@code --processes N} as a real launcher process on an ephemeral
 * loopback port (64 MB heap, serial GC, one selector loop per worker); its stdout and stderr lines
 * are collected by two reader threads. For the server's own tests and for the load tools' tests
 * that need a real multi-process target. Every wait is bounded by {@link #BOUND_SECONDS} and fails
 * the test with what was seen.
 */
public final class LaunchedServer implements AutoCloseable {
    /** The launcher's start line: shared URL, then {@code wI pid=P stats=URL} per worker. */
    private static final Pattern START = Pattern.compile(
            "^tickwork dictionary: http://127\\.0\\.0\\.1:(\\d+)/  "
                    + "(\\d+) processes: (.*)  \\(per worker: 147,478 words, 1 selector loop, at most 19,000 connections.*\\)$");

    private static final Pattern WORKER = Pattern.compile("w(\\d+) pid=(\\d+) stats=(\\S+?),?(?: |$)");

    /** The bound on every wait, in seconds. */
    public static final long BOUND_SECONDS = 60;

    public final Process process;
    public final BlockingQueue<String> out = new LinkedBlockingQueue<>();
    public final BlockingQueue<String> err = new LinkedBlockingQueue<>();
    public int port;
    public final List<Long> pids = new ArrayList<>();
    public final List<String> statsUrls = new ArrayList<>();

    public LaunchedServer(int processes, String... moreOptions) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "--processes",
                Integer.toString(processes),
                "--port",
                "0",
                "--threads",
                "1"));
        command.addAll(List.of(moreOptions));
        process = new ProcessBuilder(command).start();
        collect(process.getInputStream(), out);
        collect(process.getErrorStream(), err);
    }

    /** Reads the start line: the shared port, each worker's pid and stats URL. */
    public void awaitStart(int processes) throws InterruptedException {
        String line = awaitLine(out, "tickwork dictionary: ");
        Matcher m = START.matcher(line);
        assertTrue(m.matches(), line);
        port = Integer.parseInt(m.group(1));
        assertEquals(processes, Integer.parseInt(m.group(2)), line);
        Matcher w = WORKER.matcher(m.group(3));
        while (w.find()) {
            assertEquals(pids.size(), Integer.parseInt(w.group(1)), line);
            pids.add(Long.parseLong(w.group(2)));
            statsUrls.add(w.group(3));
        }
        assertEquals(processes, pids.size(), line);
    }

    /** The launcher's child processes: exactly the workers its start line names. */
    public List<ProcessHandle> workers() {
        List<ProcessHandle> children = process.children().collect(Collectors.toList());
        assertEquals(
                Set.copyOf(pids),
                children.stream().map(ProcessHandle::pid).collect(Collectors.toSet()),
                "children of the launcher");
        assertEquals(pids.size(), process.descendants().count(), "the workers start no processes");
        return children;
    }

    /** The last entry of a stream's lines: the stream ended. */
    public static final String END = "\u0000end of stream";

    /** Every line of {@code lines} up to the end of its stream; fails after the bound. */
    public List<String> restOf(BlockingQueue<String> lines) throws InterruptedException {
        List<String> rest = new ArrayList<>();
        for (String l; !(l = awaitLine(lines, "")).equals(END); ) {
            rest.add(l);
        }
        return rest;
    }

    /** The next line of {@code lines} starting with {@code prefix}; fails after the bound. */
    public String awaitLine(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        List<String> seen = new ArrayList<>();
        while (true) {
            String l = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertNotNull(l, "no line starting with '" + prefix + "' within " + BOUND_SECONDS + " s: " + seen + err);
            if (l.startsWith(prefix)) {
                return l;
            }
            seen.add(l);
        }
    }

    private static void collect(InputStream in, BlockingQueue<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (IOException closed) {
                // the process is gone
            }
            lines.add(END);
        });
        t.setDaemon(true);
        t.start();
    }

    /** Kills the launcher and every process under it; the test's clean-up. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
