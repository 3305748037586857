package io.tickwork.client.idle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM of {@code idle --processes}, as its parent sees it: started with {@link
 * ProcessBuilder}, its standard output and standard error read a line at a time by two daemon
 * threads into the parent's event queue (each thread ends at its pipe's end of file, when the
 * child exits), its standard input open for commands ({@link IdleChild#STOP_RAMP}, {@link
 * IdleChild#STOP}). Keeps the last {@value #TAIL} lines of standard error, to show why a child
 * that failed did. Thread safety: {@link #send}, {@link #terminate} and {@link #kill} may be
 * called from any thread, including a shutdown hook; the tail is guarded by its own lock.
 */
final class ChildProcess {
    static final int TAIL = 20;

    /** A line a child wrote, or the end of one of its streams. */
    record Event(ChildProcess child, Kind kind, String line) {}

    enum Kind {
        OUT,
        ERR,
        /** The end of standard output or of standard error: two per child, the second when it is gone. */
        EOF
    }

    private final int index;
    private final Process process;
    private final Writer stdin;
    private final ArrayDeque<String> tail = new ArrayDeque<>();

    private ChildProcess(int index, Process process) {
        this.index = index;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** Starts child {@code index} (from 0) with {@code command}; its lines go to {@code events}. */
    static ChildProcess start(int index, List<String> command, BlockingQueue<Event> events) throws IOException {
        ChildProcess c = new ChildProcess(index, new ProcessBuilder(command).start());
        c.read(c.process.getInputStream(), Kind.OUT, events);
        c.read(c.process.getErrorStream(), Kind.ERR, events);
        return c;
    }

    private void read(InputStream s, Kind kind, BlockingQueue<Event> events) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(s, StandardCharsets.UTF_8))) {
                        for (String line = r.readLine(); line != null; line = r.readLine()) {
                            if (kind == Kind.ERR) {
                                keep(line);
                            }
                            events.add(new Event(this, kind, line));
                        }
                    } catch (IOException e) {
                        // the pipe broke: as at its end
                    }
                    events.add(new Event(this, Kind.EOF, null));
                },
                "idle-child-" + (index + 1) + "-" + kind.name().toLowerCase(Locale.ROOT));
        t.setDaemon(true);
        t.start();
    }

    private void keep(String line) {
        synchronized (tail) {
            if (tail.size() == TAIL) {
                tail.removeFirst();
            }
            tail.addLast(line);
        }
    }

    /** The last lines the child wrote to standard error, oldest first. */
    List<String> tail() {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    /** Its number from 0, in the plan's order. */
    int index() {
        return index;
    }

    long pid() {
        return process.pid();
    }

    /** Writes one command line to the child; a child that is gone is ignored. */
    void send(String line) {
        synchronized (stdin) {
            try {
                stdin.write(line);
                stdin.write('\n');
                stdin.flush();
            } catch (IOException e) {
                // the child has exited: nothing to tell it
            }
        }
    }

    /**
     * SIGTERM: the child ends its hold, sends its report and exits. Through the process handle:
     * {@code Process.destroy()} would also close our ends of its pipes, and the report with them.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** SIGKILL. */
    void kill() {
        process.destroyForcibly();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit status, waiting at most {@code millis}; null if it is still running then. */
    Integer exitStatus(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }
}
