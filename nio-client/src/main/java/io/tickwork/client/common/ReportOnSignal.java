package io.tickwork.client.common;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a measurement so that Ctrl-C or SIGTERM ends it early and its report still comes out: a
 * shutdown hook calls {@code stop} and then waits, at most {@link #WAIT_SECONDS} s (or the wait
 * given), for the body to return (it prints its report before returning). The JVM then exits with the signal's status
 * (130 for SIGINT, 143 for SIGTERM), whatever the body returned; a body that ends by itself
 * removes the hook. {@code stop} must be callable from any thread, before or during the run.
 */
public final class ReportOnSignal {
    /** How long the hook waits for the report before letting the JVM exit without it. */
    public static final long WAIT_SECONDS = 10;

    /** The measurement: runs, prints its report, and returns the exit status. */
    public interface Body {
        int run() throws IOException, InterruptedException;
    }

    private ReportOnSignal() {}

    public static int run(String name, Runnable stop, Body body) throws IOException, InterruptedException {
        return run(name, stop, body, WAIT_SECONDS);
    }

    /** {@link #run(String, Runnable, Body)}, the hook waiting at most {@code waitSeconds} for the report. */
    public static int run(String name, Runnable stop, Body body, long waitSeconds)
            throws IOException, InterruptedException {
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    try {
                        stop.run();
                    } catch (RuntimeException e) {
                        // the run may still end by itself: wait for its report all the same
                    }
                    try {
                        reported.await(waitSeconds, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                name + "-stop-on-signal");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return body.run();
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it finds the report done
            }
        }
    }
}
