package io.tickwork.server;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.server.dict.Dictionary;
import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Runs the dictionary server: {@code java -jar tickwork-server.jar [options]}. Prints one line
 * with the URL and the word count once it serves; SIGTERM or Ctrl-C stops it gracefully (no new
 * connections, responses in flight finished) and the process exits 0. With {@code --processes N}
 * it starts N worker processes sharing the port instead ({@link WorkerLauncher}).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses, starts, waits for a stop signal; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        ServerOptions o = new ServerOptions();
        CommandLine cl;
        try {
            cl = ServerOptions.parse(o, args);
        } catch (ParameterException e) {
            err.println("tickwork: " + e.getMessage());
            e.getCommandLine().usage(err, CommandLine.Help.Ansi.OFF);
            return 2;
        }
        if (cl.isUsageHelpRequested()) {
            cl.usage(out, CommandLine.Help.Ansi.OFF);
            return 0;
        }
        if (o.processes > 1) {
            return WorkerLauncher.run(o, out, err);
        }
        return serve(o, out, err);
    }

    /**
     * Serves in this process until a stop signal; returns the exit code. As a worker of
     * {@link WorkerLauncher} ({@code --worker-index}) it also shares the port with
     * {@code SO_REUSEPORT}, serves its own counters on a private port, stops when the launcher is
     * gone, and prints {@link WorkerLauncher#workerLine} instead of the start line.
     */
    private static int serve(ServerOptions o, PrintStream out, PrintStream err) {
        boolean worker = o.workerIndex >= 0;
        Dictionary dict;
        try {
            dict = o.data == null ? Dictionary.openEmbedded() : Dictionary.open(o.data);
        } catch (IOException | RuntimeException e) {
            err.println("tickwork: cannot open the dictionary: " + e.getMessage());
            return 1;
        }
        HttpServer server;
        HttpServer statsServer = null;
        ExecutorService pool = null;
        CountDownLatch stop = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Consumer<Throwable> failed = f -> {
            failure.set(f); // the server stops itself; this process then exits 1
            stop.countDown();
        };
        try {
            HttpServer.Builder b = HttpServer.builder(new DictionaryHandler(dict, null, o.cachedWords))
                    .onFailure(failed)
                    .host(o.host)
                    .port(o.port)
                    .idleTimeout(o.idleTimeout)
                    .headerTimeout(o.headerTimeout)
                    .drainTimeout(o.drainTimeout)
                    .maxConnections(o.connectionCap())
                    .reusePort(worker);
            b.timerKind(TimerKind.parse(o.timer));
            b.threads(o.threads);
            if (o.workers > 0) {
                pool = Executors.newFixedThreadPool(o.workers, r -> {
                    Thread t = new Thread(r, "tickwork-worker");
                    t.setDaemon(true);
                    return t;
                });
                b.workers(pool);
                if (o.responseTimeout != null) {
                    b.responseTimeout(o.responseTimeout);
                }
            }
            server = b.start();
        } catch (IOException | UnsupportedOperationException | UnsupportedAddressTypeException e) {
            err.println("tickwork: cannot listen on " + o.host + ":" + o.port + ": " + WorkerLauncher.reason(e));
            return 1;
        } catch (OutOfMemoryError e) {
            // each selector loop takes its buffers at start (direct memory, capped by -Xmx unless
            // -XX:MaxDirectMemorySize says otherwise): too many loops for this JVM
            err.println("tickwork: cannot start " + o.threads + " selector loops: " + e.getMessage()
                    + "; use fewer --threads, or give the JVM more memory (-Xmx, -XX:MaxDirectMemorySize"
                    + (worker ? ", through the launcher's --worker-jvm-opts" : "") + ")");
            return 1;
        }
        if (worker) {
            try {
                statsServer = WorkerLauncher.statsListener(dict, server, o, failed);
            } catch (IOException e) {
                server.close();
                err.println("tickwork: cannot listen on " + o.host + ":0 for the worker's /stats: " + e.getMessage());
                return 1;
            }
        }
        HttpServer stopping = server;
        java.util.concurrent.atomic.AtomicInteger signals = new java.util.concurrent.atomic.AtomicInteger();
        Runnable endDrain = () -> { // a second signal: the operator will not wait out the drain
            err.println("tickwork: a second signal: closing the connections still draining now");
            stopping.endDrainNow();
        };
        Runnable onSignal = () -> {
            if (signals.incrementAndGet() == 1) {
                stop.countDown();
            } else {
                endDrain.run();
            }
        };
        if (worker) {
            Signals.onWorkerTermination(onSignal); // the launcher's SIGTERM
            WorkerLauncher.onLauncherGone(stop::countDown, endDrain); // and its second signal
        } else {
            Signals.onTermination(onSignal);
        }
        HttpServer side = statsServer;
        Thread hook = new Thread(
                () -> {
                    server.close();
                    if (side != null) {
                        side.close();
                    }
                },
                "tickwork-shutdown");
        Runtime.getRuntime().addShutdownHook(hook); // other ways the JVM may end (System.exit)
        String summary = String.format(
                Locale.ROOT,
                "%,d words, %d selector loop%s%s%s, timer %s, data %s",
                dict.wordCount(),
                server.threads(),
                server.threads() == 1 ? "" : "s",
                o.workers > 0 ? ", " + o.workers + (o.workers == 1 ? " worker" : " workers") : "",
                o.connectionCap() == Integer.MAX_VALUE
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", at most %,d connection%s",
                                o.connectionCap(),
                                o.connectionCap() == 1 ? "" : "s"),
                o.timer,
                dict.source());
        if (worker) {
            out.println(WorkerLauncher.workerLine(
                    o.workerIndex, url(server.address()), url(statsServer.address()) + "stats", summary));
        } else {
            out.println("tickwork dictionary: " + url(server.address()) + "  (" + summary + ")");
        }
        out.flush();
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a drain that takes more than a second says so: what it waits for, and how to end it
        CountDownLatch drained = new CountDownLatch(1);
        Thread drainReport = new Thread(
                () -> {
                    try {
                        if (drained.await(1, TimeUnit.SECONDS)) {
                            return;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    long open = stopping.stats().openConnections();
                    err.printf(
                            Locale.ROOT,
                            "tickwork: stopping: draining %,d connection%s for at most %,d ms more (a second signal"
                                    + " closes them now)%n",
                            open,
                            open == 1 ? "" : "s",
                            Math.max(0, o.drainTimeout.toMillis() - 1_000));
                },
                "tickwork-drain-report");
        drainReport.setDaemon(true);
        drainReport.start();
        server.close();
        drained.countDown();
        if (statsServer != null) {
            statsServer.close();
        }
        if (pool != null) {
            pool.shutdown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or ran; close() is idempotent
        }
        out.printf(
                Locale.ROOT,
                "%s: stopped after %,d requests%n",
                worker ? "tickwork worker " + o.workerIndex : "tickwork dictionary",
                server.stats().requests());
        if (failure.get() != null) {
            err.println("tickwork: stopped because a selector loop failed: " + failure.get());
            return 1;
        }
        return 0;
    }

    /** {@code http://host:port/} for a bound address; the wildcard address reads {@code localhost}. */
    private static String url(InetSocketAddress a) {
        String host = a.getAddress().isAnyLocalAddress() ? "localhost" : a.getHostString();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort() + "/";
    }
}
