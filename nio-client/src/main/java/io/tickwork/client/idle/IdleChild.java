package io.tickwork.client.idle;

import io.tickwork.client.common.ReportOnSignal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The child side of {@code idle --processes}: one holder whose progress, each second and when its
 * ramp ends, goes to standard output as an {@link IdleProgress} JSON line, followed at the end by
 * the final report on one line ({@link FleetReport#childJson}, the {@code --json} report plus the
 * latency histogram); human messages go to {@code events} (standard error, which the parent
 * forwards). Standard input carries the parent's commands, a line each: {@value #STOP_RAMP}WHY (no
 * more connects, hold what is open, WHY the report's {@code stopped_by}) and {@value #STOP} (end
 * the run now). SIGINT or SIGTERM ends the run too, with its report (then exit 130 or 143).
 *
 * <p>A child never outlives its parent by more than {@value #PARENT_POLL_MS} ms: the end of
 * standard input (the parent's end of the pipe closed, as when it dies) ends the run, and so does
 * the parent process no longer being alive ({@link ProcessHandle#parent()}, polled). Threads: the
 * holder runs on the caller's; a daemon reads standard input until its end, another polls the
 * parent until the run ends. Each is bounded by the run and costs nothing per connection.
 */
final class IdleChild {
    static final String STOP_RAMP = "stop-ramp ";
    static final String STOP = "stop";
    static final long PARENT_POLL_MS = 250;

    private IdleChild() {}

    /** Runs {@code cfg} as a child of {@code --processes}; returns the exit status. */
    static int run(IdleConfig cfg, PrintStream out, PrintStream events, InputStream in)
            throws IOException, InterruptedException {
        IdleHolder h = new IdleHolder(cfg, events, new IdleProgress.Listener() {
            @Override
            public void second(IdleProgress p) {
                line(out, p.toJson());
            }

            @Override
            public void rampEnded(IdleProgress p) {
                line(out, p.toJson());
            }
        });
        CountDownLatch done = new CountDownLatch(1);
        daemon("idle-child-stdin", () -> obey(in, h));
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        daemon("idle-child-parent", () -> watch(parent, h, done));
        try {
            // a signal (Ctrl-C reaches the whole process group, the parent's hook sends SIGTERM)
            // ends the hold early, and the report still reaches the parent
            return ReportOnSignal.run("idle-child", h::stop, () -> {
                IdleResult r = h.run();
                line(out, FleetReport.childJson(r, cfg));
                return 0;
            });
        } finally {
            done.countDown();
        }
    }

    private static void line(PrintStream out, String json) {
        out.println(json);
        out.flush();
    }

    /** Reads the parent's commands until the end of input, which ends the run. */
    static void obey(InputStream in, IdleHolder h) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith(STOP_RAMP)) {
                    h.requestRampStop(line.substring(STOP_RAMP.length()));
                } else if (line.equals(STOP)) {
                    break;
                }
            }
        } catch (IOException e) {
            // the parent's end is gone: stop as at the end of input
        }
        h.stop();
    }

    /** Stops the holder once the parent is not alive; returns when the run is done. */
    private static void watch(Optional<ProcessHandle> parent, IdleHolder h, CountDownLatch done) {
        try {
            do {
                if (parent.isEmpty() || !parent.get().isAlive()) {
                    h.stop();
                    return;
                }
            } while (!done.await(PARENT_POLL_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
