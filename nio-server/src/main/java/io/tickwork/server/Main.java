package io.tickwork.server;

import io.tickwork.server.dict.Dictionary;
import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the dictionary server: {@code java -jar tickwork-server.jar [options]}. Prints one line
 * with the URL and the word count once it serves; SIGTERM or Ctrl-C stops it gracefully (no new
 * connections, responses in flight finished) and the process exits 0.
 */
public final class Main {
    private Main() {}

    static final String USAGE = String.join(
            "\n",
            "usage: java -jar tickwork-server.jar [options]",
            "  --port N             TCP port (default 9090; 0 picks a free one)",
            "  --host ADDR          address to bind (default 127.0.0.1; 0.0.0.0 for all)",
            "  --threads N          selector loops (default: one per core, "
                    + Runtime.getRuntime().availableProcessors() + " here)",
            "  --idle-timeout T     close keep-alive connections idle this long (default 60s; e.g. 300ms, 30s, 2m)",
            "  --header-timeout T   408 and close when a request head takes longer (default 10s)",
            "  --timer KIND         timer queue for the timeouts: " + Timers.names() + " (default " + Timers.DEFAULT
                    + ")",
            "  --workers N          run handlers on a pool of N threads, each connection's responses kept in order\n"
                    + "                       by the ordered-execution primitive (default 0: handlers run on the loops)",
            "  --data FILE          a compiled dictionary (.twd) instead of the embedded WordNet 3.1",
            "  --help               this text");

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses, starts, waits for a stop signal; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("tickwork: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (o.help) {
            out.println(USAGE);
            return 0;
        }
        Dictionary dict;
        try {
            dict = o.data == null ? Dictionary.openEmbedded() : Dictionary.open(o.data);
        } catch (IOException | RuntimeException e) {
            err.println("tickwork: cannot open the dictionary: " + e.getMessage());
            return 1;
        }
        HttpServer server;
        ExecutorService pool = null;
        try {
            HttpServer.Builder b = HttpServer.builder(new DictionaryHandler(dict))
                    .host(o.host)
                    .port(o.port)
                    .idleTimeout(o.idleTimeout)
                    .headerTimeout(o.headerTimeout);
            b.timers(Timers.factory(o.timer));
            if (o.threads > 0) {
                b.threads(o.threads);
            }
            if (o.workers > 0) {
                pool = Executors.newFixedThreadPool(o.workers, r -> {
                    Thread t = new Thread(r, "tickwork-worker");
                    t.setDaemon(true);
                    return t;
                });
                b.workers(pool);
            }
            server = b.start();
        } catch (IOException e) {
            err.println("tickwork: cannot listen on " + o.host + ":" + o.port + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signals.onTermination(stop::countDown);
        Thread hook = new Thread(server::close, "tickwork-shutdown");
        Runtime.getRuntime().addShutdownHook(hook); // other ways the JVM may end (System.exit, SIGHUP)
        String host = server.address().getAddress().isAnyLocalAddress()
                ? "localhost"
                : server.address().getHostString();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        out.printf(
                Locale.ROOT,
                "tickwork dictionary: http://%s:%d/  (%,d words, %d selector loops%s, timer %s, data %s)%n",
                host,
                server.port(),
                dict.wordCount(),
                server.threads(),
                o.workers > 0 ? ", " + o.workers + " workers" : "",
                o.timer,
                dict.source());
        out.flush();
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.close();
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
                "tickwork dictionary: stopped after %,d requests%n",
                server.stats().requests());
        return 0;
    }

    /** Command-line options, validated; errors name the option and the value. */
    static final class Options {
        int port = 9090;
        String host = "127.0.0.1";
        int threads = 0;
        int workers = 0;
        Duration idleTimeout = Duration.ofSeconds(60);
        Duration headerTimeout = Duration.ofSeconds(10);
        String timer = Timers.DEFAULT;
        Path data;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                String v = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    v = a.substring(eq + 1);
                    a = a.substring(0, eq);
                }
                if (a.equals("--help") || a.equals("-h")) {
                    o.help = true;
                    continue;
                }
                if (v == null) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    v = args[++i];
                }
                switch (a) {
                    case "--port":
                        o.port = intIn(a, v, 0, 65535);
                        break;
                    case "--host":
                        o.host = v;
                        break;
                    case "--threads":
                        o.threads = intIn(a, v, 1, 1024);
                        break;
                    case "--workers":
                        o.workers = intIn(a, v, 0, 1024);
                        break;
                    case "--idle-timeout":
                        o.idleTimeout = duration(a, v);
                        break;
                    case "--header-timeout":
                        o.headerTimeout = duration(a, v);
                        break;
                    case "--timer":
                        o.timer = Timers.check(v);
                        break;
                    case "--data":
                        o.data = Paths.get(v);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option: " + a);
                }
            }
            return o;
        }

        static int intIn(String name, String v, int min, int max) {
            try {
                int x = Integer.parseInt(v);
                if (x >= min && x <= max) {
                    return x;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(name + " must be an integer in " + min + ".." + max + ": " + v);
        }

        /** {@code 300ms}, {@code 30s}, {@code 2m}, or a plain number of seconds; at least 1 ms. */
        static Duration duration(String name, String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            try {
                Duration d;
                if (s.endsWith("ms")) {
                    d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
                } else if (s.endsWith("s")) {
                    d = Duration.ofMillis(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
                } else if (s.endsWith("m")) {
                    d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)) * 60);
                } else {
                    d = Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
                }
                if (d.toMillis() >= 1) {
                    return d;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(
                    name + " must be a duration of at least 1ms such as 300ms, 30s or 2m: " + v);
        }
    }
}
