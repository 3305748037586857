package io.tickwork.client.bench;

import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.LatencyRange;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link BenchConfig}: starts one {@link BenchWorker} selector thread per {@code
 * threads}, waits until every connection has connected or failed its first connect (at most
 * {@code --connect-timeout} and a second; see {@link RunStart}), then starts the run's clock,
 * prints a progress line per second from the calling thread, and returns the merged
 * {@link BenchReport}. With a warm-up, the workload runs that long unmeasured first (progress
 * lines marked {@code warmup}); the result covers only what follows it. The run ends at
 * warm-up plus duration, or when the request count is complete, whichever comes first; {@link
 * #stop()} ends it early from any thread.
 */
final class Bench {
    private final BenchConfig cfg;
    private final List<BenchWorker> workers = new ArrayList<>();
    /** {@link #workers} once all are made, for {@link #stop()} from another thread; empty before. */
    private volatile List<BenchWorker> published = List.of();

    private volatile boolean stopped;
    /** Seconds the run gave up after, with no connection open and every connect failing; 0 if it did not. */
    private int lostTheServerAfter;

    private int failedEveryConnectionAfter;
    /** Stopped (a signal) before the connect phase had ended: the run's clock never started. */
    private boolean stoppedInConnectPhase;

    Bench(BenchConfig cfg) {
        this.cfg = cfg;
    }

    void stop() {
        stopped = true; // before reading published: a run publishing its workers then sees it
        for (BenchWorker w : published) {
            w.stop();
        }
    }

    BenchReport run(PrintStream progress) throws InterruptedException {
        RunStart gate = new RunStart(cfg.threads());
        AtomicLong budget = cfg.count() > 0 && !cfg.openLoop() ? new AtomicLong(cfg.count()) : null;
        int threads = cfg.threads();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int conns = cfg.connections() / threads + (i < cfg.connections() % threads ? 1 : 0);
            long share = Long.MAX_VALUE;
            if (cfg.openLoop() && cfg.count() > 0) {
                share = cfg.count() / threads + (i < cfg.count() % threads ? 1 : 0);
            }
            BenchWorker w = new BenchWorker(cfg, i, conns, budget, share, cfg.rate() / threads, gate);
            workers.add(w);
            Thread t = new Thread(w, "bench-selector-" + i);
            t.setDaemon(true);
            ts.add(t);
        }
        published = List.copyOf(workers);
        if (stopped) {
            stop();
        }
        for (Thread t : ts) {
            t.start();
        }
        // the connect phase: the workers begin their connects (each call bounded by the kernel),
        // then every connect ends within --connect-timeout; cut short by a stop
        try {
            while (!gate.awaitIssued(100) && !stopped) {
                // waiting for the workers to begin their first connects
            }
            long connectBound = System.nanoTime() + cfg.connectTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
            while (!gate.awaitSettled(100) && !stopped && System.nanoTime() < connectBound) {
                // waiting for the workers' first connects
            }
        } catch (InterruptedException e) {
            stop();
            long now = System.nanoTime();
            gate.go(now, now, now); // no worker waits for a start that will not come
            throw e;
        }
        stoppedInConnectPhase = stopped;
        long start = System.nanoTime();
        long warmEnd = start + cfg.warmup().toNanos();
        long end = warmEnd + cfg.duration().toNanos();
        gate.go(start, warmEnd, end);
        for (BenchWorker w : workers) {
            w.wake(); // a worker waiting for the start wakes now, not at its next housekeeping
        }
        Histogram total = LatencyRange.histogram();
        Histogram[] recycle = new Histogram[workers.size()];
        Histogram[] recycleWarm = new Histogram[workers.size()];
        List<Counters> counters = new ArrayList<>();
        for (BenchWorker w : workers) {
            counters.add(w.counters);
        }
        long lastCompleted = 0;
        long lastBytes = 0;
        long lastErrors = 0;
        long outageConnectErrors = 0; // connect errors when a connection was last seen open
        int secondsWithoutServer = 0; // whole seconds in a row with no connection open
        int lastAnsweredSecond = 0; // the last second a response came in (or the start)
        long failuresThen = 0; // connections closed, reset or unparsable by then
        long tick = start;
        int second = 0;
        for (Thread t : ts) {
            while (true) {
                long now = System.nanoTime();
                long next = Math.min(tick + TimeUnit.SECONDS.toNanos(1), end + TimeUnit.SECONDS.toNanos(5));
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - now)));
                if (!t.isAlive()) {
                    break;
                }
                now = System.nanoTime();
                if (now >= end + TimeUnit.SECONDS.toNanos(5)) {
                    stop(); // a worker that missed its deadline by 5 s: tell it again, keep waiting
                }
                if (now - tick >= TimeUnit.SECONDS.toNanos(1)) {
                    tick += TimeUnit.SECONDS.toNanos(1);
                    second++;
                    Histogram h = LatencyRange.histogram();
                    for (int i = 0; i < workers.size(); i++) {
                        recycle[i] = workers.get(i).recorder.getIntervalHistogram(recycle[i]);
                        h.add(recycle[i]);
                        total.add(recycle[i]); // measured requests only
                        recycleWarm[i] = workers.get(i).warmRecorder.getIntervalHistogram(recycleWarm[i]);
                        h.add(recycleWarm[i]); // this second's line shows warm-up responses too
                    }
                    long completed = Counters.sum(counters, Counters.COMPLETED)
                            + Counters.sum(counters, Counters.WARM_COMPLETED);
                    long bytes = Counters.sum(counters, Counters.BYTES_READ);
                    long errors = errorsNow(counters);
                    if (progress != null) {
                        progressLine(
                                progress,
                                second,
                                tick <= warmEnd,
                                1,
                                completed - lastCompleted,
                                bytes - lastBytes,
                                h,
                                errors - lastErrors,
                                "open " + Counters.sum(counters, Counters.OPEN));
                    }
                    if (second >= 3
                            && Counters.sum(counters, Counters.EVER_CONNECTED) == 0
                            && Counters.sum(counters, Counters.ERR_CONNECT) > 0) {
                        if (progress != null) {
                            progress.println("giving up: no connection succeeded in " + second + " s");
                        }
                        stop();
                    }
                    long connectErrors = Counters.sum(counters, Counters.ERR_CONNECT);
                    if (Counters.sum(counters, Counters.OPEN) == 0) {
                        secondsWithoutServer++;
                    } else {
                        secondsWithoutServer = 0;
                        outageConnectErrors = connectErrors;
                    }
                    // a connect that times out fails only every --connect-timeout: the outage is
                    // counted in seconds, and needs a failed connect in it, not one a second
                    if (secondsWithoutServer >= GIVE_UP_SECONDS
                            && connectErrors > outageConnectErrors
                            && Counters.sum(counters, Counters.EVER_CONNECTED) > 0
                            && lostTheServerAfter == 0) {
                        lostTheServerAfter = second;
                        if (progress != null) {
                            progress.println("giving up: no connection open for " + GIVE_UP_SECONDS
                                    + " s, connects failing (the server stopped accepting)");
                        }
                        stop();
                    }
                    long failures = Counters.sum(counters, Counters.ERR_CLOSED)
                            + Counters.sum(counters, Counters.ERR_IO)
                            + Counters.sum(counters, Counters.ERR_PARSE);
                    if (completed > lastCompleted) {
                        lastAnsweredSecond = second;
                        failuresThen = failures;
                    } else if (second - lastAnsweredSecond >= GIVE_UP_SECONDS
                            && failures - failuresThen >= cfg.connections() // as many as the connections
                            && lostTheServerAfter == 0
                            && failedEveryConnectionAfter == 0) {
                        failedEveryConnectionAfter = second;
                        if (progress != null) {
                            progress.println("giving up: no response for " + GIVE_UP_SECONDS
                                    + " s, connections closed, reset or answered unparsably");
                        }
                        stop();
                    }
                    lastCompleted = completed;
                    lastBytes = bytes;
                    lastErrors = errors;
                }
            }
        }
        // to the last loop's end, not past the closing of the sockets (the workers have ended)
        long ended = 0;
        for (BenchWorker w : workers) {
            ended = Math.max(ended, w.loopEndedAt);
        }
        long endedAt = ended != 0 ? ended : System.nanoTime();
        double elapsed = Math.max(0, endedAt - warmEnd) / 1e9;
        Histogram last = LatencyRange.histogram(); // since the last progress line
        List<Counters> measured = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            BenchWorker w = workers.get(i);
            recycle[i] = w.recorder.getIntervalHistogram(recycle[i]);
            total.add(recycle[i]);
            last.add(recycle[i]);
            recycleWarm[i] = w.warmRecorder.getIntervalHistogram(recycleWarm[i]);
            last.add(recycleWarm[i]);
            // the worker thread has ended (joined above): its baseline and counters are final. A
            // worker that never reached the end of the warm-up measured nothing.
            measured.add(w.counters.since(w.baseline != null || !cfg.warmsUp() ? w.baseline : w.counters.snapshot()));
        }
        long completed = Counters.sum(counters, Counters.COMPLETED) + Counters.sum(counters, Counters.WARM_COMPLETED);
        long errors = errorsNow(counters);
        if (progress != null && endedAt > tick && (completed > lastCompleted || errors > lastErrors)) {
            // the part of a second after the last line: the lines then add up to the run
            double part = (endedAt - tick) / 1e9;
            progressLine(
                    progress,
                    second + 1,
                    endedAt <= warmEnd,
                    part,
                    completed - lastCompleted,
                    Counters.sum(counters, Counters.BYTES_READ) - lastBytes,
                    last,
                    errors - lastErrors,
                    String.format(Locale.ROOT, "(the last %.2fs)", part));
        }
        String firstParseError = null;
        for (BenchWorker w : workers) {
            if (firstParseError == null) {
                firstParseError = w.firstParseError;
            }
        }
        return new BenchReport(cfg, elapsed, measured, total, firstParseError);
    }

    /**
     * One progress line: what {@code seconds} of the run (1, or the part of a second at its end)
     * completed and read, as rates, with that interval's latency; {@code tail} ends the line.
     */
    private static void progressLine(
            PrintStream progress,
            int second,
            boolean warm,
            double seconds,
            long completed,
            long bytes,
            Histogram h,
            long errors,
            String tail) {
        progress.printf(
                Locale.ROOT,
                "%4ds%s %9.0f req/s  %8.2f MiB/s  p50 %-9s p99 %-9s max %-9s errors %d  %s%n",
                second,
                warm ? " warmup" : "",
                completed / seconds,
                bytes / (1024.0 * 1024.0) / seconds,
                Fmt.nanos(h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50)),
                Fmt.nanos(h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99)),
                Fmt.nanos(h.getTotalCount() == 0 ? 0 : h.getMaxValue()),
                errors,
                tail);
    }

    /**
     * After {@link #run}: a stop (a signal) came before every connection's first connect had ended,
     * so the run's clock never started.
     */
    boolean stoppedInConnectPhase() {
        return stoppedInConnectPhase;
    }

    /** Seconds without a connection open, connects failing, after which a run that had connected gives up. */
    static final int GIVE_UP_SECONDS = 3;

    /**
     * After {@link #run}: the second at which the run gave up because the server, reached before,
     * stopped accepting connections ({@value #GIVE_UP_SECONDS} s or more with none open, and a
     * connect failed meanwhile); 0 if it did not.
     */
    int lostTheServerAfter() {
        return lostTheServerAfter;
    }

    /**
     * After {@link #run}: the second at which the run gave up because no response came in for
     * {@value #GIVE_UP_SECONDS} s while connections were closed, reset or answered with bytes that
     * do not parse, as many times as there are connections (a server that accepts and then fails
     * every connection; a few failures beside connections still waiting do not count, nor do
     * timeouts: a slow server is measured, not given up on); 0 if it did not.
     */
    int failedEveryConnectionAfter() {
        return failedEveryConnectionAfter;
    }

    /** After {@link #run}: no connection of any worker ever succeeded, so nothing of the server was measured. */
    boolean neverConnected() {
        List<Counters> counters = new ArrayList<>();
        for (BenchWorker w : workers) {
            counters.add(w.counters);
        }
        return Counters.sum(counters, Counters.EVER_CONNECTED) == 0;
    }

    /** What ended a worker thread early (its selector failed, or a bug), or null; after {@link #run}. */
    Throwable workerFailure() {
        for (BenchWorker w : workers) {
            if (w.failure != null) {
                return w.failure;
            }
        }
        return null;
    }

    private static long errorsNow(List<Counters> counters) {
        long e = Counters.sum(counters, Counters.ERR_CONNECT)
                + Counters.sum(counters, Counters.ERR_TIMEOUT)
                + Counters.sum(counters, Counters.ERR_PARSE)
                + Counters.sum(counters, Counters.ERR_CLOSED)
                + Counters.sum(counters, Counters.ERR_IO);
        for (int s = 100; s < 600; s++) {
            if (s < 200 || s > 299) {
                e += Counters.sum(counters, Counters.STATUS + s);
            }
        }
        return e;
    }
}
