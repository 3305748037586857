package io.tickwork.server.client.pingpong;

import io.tickwork.server.client.common.Args;
import io.tickwork.server.client.common.Fmt;
import io.tickwork.server.client.common.Targets;
import io.tickwork.server.client.common.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The {@code pingpong} subcommand: {@code run} (server and client in one process, one model or
 * all), {@code server}, {@code client}, {@code models}.
 */
public final class PingPongCommand {
    private PingPongCommand() {}

    static final List<Args.Opt> OPTS = List.of(
            Args.Opt.value(
                            "model",
                            "M",
                            "server model: nio, threads, virtual (JDK 21+), kilim, or " + "all for run (default nio)")
                    .alias('m'),
            Args.Opt.value("connections", "C", "client connections (default 100)")
                    .alias('c'),
            Args.Opt.value("pings", "N", "round trips in total (default 1m, accepts 200k)")
                    .alias('n'),
            Args.Opt.value("warmup", "N", "unmeasured round trips first, for the JIT (default 100k)"),
            Args.Opt.value("threads", "T", "client selector threads (default 1)")
                    .alias('t'),
            Args.Opt.value("server-threads", "T", "nio: selector threads; kilim: run loops (default 1)"),
            Args.Opt.flag(
                    "spin",
                    "busy-poll (selectNow) instead of sleeping in epoll_wait: the "
                            + "client's\nloops and, for run/server with -m nio, the server's; a core each"),
            Args.Opt.value("port", "P", "server: port to listen on, 127.0.0.1 (default 0 = any)"),
            Args.Opt.value("duration", "TIME", "bound on each run, and the server's lifetime (default " + "60s)")
                    .alias('D'));

    static final String USAGE = """
      LoadTool pingpong run [options]           server and client in this process
             LoadTool pingpong server [options]        server only, until --duration
             LoadTool pingpong client [options] HOST:PORT
             LoadTool pingpong models                  which models this JVM has""";
    static final String WHAT = """
      TCP ping-pong: C persistent connections, each sending a 4-byte "Ping" and waiting for
      "Pong", N round trips in total. Reports microseconds per ping (total time / N, the usual
      ping-pong metric) and round-trip percentiles (HdrHistogram). Compares server threading models.""";

    public static int run(String[] argv, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        String mode = argv.length == 0 ? "--help" : argv[0];
        String[] rest = Arrays.copyOfRange(argv, Math.min(1, argv.length), argv.length);
        if (mode.equals("--help") || mode.equals("-h") || mode.equals("help")) {
            out.print(Args.help(USAGE, WHAT, OPTS));
            return 0;
        }
        Args a = Args.parse("pingpong " + mode, OPTS, rest);
        if (a.help()) {
            out.print(Args.help(USAGE, WHAT, OPTS));
            return 0;
        }
        int connections = a.intValue("connections", 100, 1, 20_000);
        long pings = a.longValue("pings", 1_000_000, 1, 1_000_000_000);
        long warmup = a.longValue("warmup", 100_000, 0, 1_000_000_000);
        int threads = a.intValue("threads", 1, 1, 256);
        int serverThreads = a.intValue("server-threads", 1, 1, 256);
        boolean spin = a.flag("spin");
        Duration duration = a.duration("duration", Duration.ofSeconds(60), Duration.ofMillis(100), Duration.ofHours(1));
        switch (mode) {
            case "models" -> {
                for (PingPongModel m : PingPongModel.values()) {
                    String why = m.unavailableReason();
                    out.printf("%-8s %s%s%n", m.id(), m.description, why == null ? "" : "  [unavailable: " + why + "]");
                }
                return 0;
            }
            case "server" -> {
                PingPongModel m = PingPongModel.parse(a.string("model", "nio"));
                int port = a.intValue("port", 0, 0, 65535);
                try (PingPongServer s = m.create(serverThreads, spin)) {
                    InetSocketAddress at = s.start(new InetSocketAddress("127.0.0.1", port));
                    out.printf(
                            "pingpong server (%s: %s) listening on 127.0.0.1:%d for %s%n",
                            m.id(), m.description, at.getPort(), Fmt.duration(duration));
                    out.flush();
                    new CountDownLatch(1).await(duration.toMillis(), TimeUnit.MILLISECONDS);
                }
                return 0;
            }
            case "client" -> {
                if (a.positional().size() != 1) {
                    throw new UsageException("pingpong client needs one HOST:PORT, got: " + a.positional());
                }
                InetSocketAddress target =
                        Targets.hostPort("HOST:PORT", a.positional().get(0));
                PingPongClient.Result r = measure(target, connections, threads, pings, warmup, duration, spin);
                out.print(r.toText("pingpong " + target.getAddress().getHostAddress() + ":" + target.getPort()));
                return r.pings() == pings ? 0 : 1;
            }
            case "run" -> {
                String model = a.string("model", "nio");
                List<PingPongModel> models = model.equalsIgnoreCase("all")
                        ? List.of(PingPongModel.values())
                        : List.of(PingPongModel.parse(model));
                int status = 0;
                for (PingPongModel m : models) {
                    String why = m.unavailableReason();
                    if (why != null) {
                        out.printf("%s: unavailable: %s%n", m.id(), why);
                        continue;
                    }
                    PingPongClient.Result r =
                            runModel(m, serverThreads, connections, threads, pings, warmup, duration, spin);
                    out.print(r.toText(m.id()));
                    if (r.pings() != pings) {
                        status = 1;
                    }
                }
                return status;
            }
            default -> throw new UsageException("pingpong needs run, server, client or models: " + mode);
        }
    }

    static PingPongClient.Result runModel(
            PingPongModel m,
            int serverThreads,
            int connections,
            int threads,
            long pings,
            long warmup,
            Duration duration)
            throws IOException, InterruptedException {
        return runModel(m, serverThreads, connections, threads, pings, warmup, duration, false);
    }

    static PingPongClient.Result runModel(
            PingPongModel m,
            int serverThreads,
            int connections,
            int threads,
            long pings,
            long warmup,
            Duration duration,
            boolean spin)
            throws IOException, InterruptedException {
        try (PingPongServer s = m.create(serverThreads, spin)) {
            InetSocketAddress at = s.start(new InetSocketAddress("127.0.0.1", 0));
            return measure(at, connections, threads, pings, warmup, duration, spin);
        }
    }

    static PingPongClient.Result measure(
            InetSocketAddress target,
            int connections,
            int threads,
            long pings,
            long warmup,
            Duration duration,
            boolean spin)
            throws IOException, InterruptedException {
        if (warmup > 0) {
            new PingPongClient(target, connections, threads, spin).run(warmup, duration.toNanos());
        }
        return new PingPongClient(target, connections, threads, spin).run(pings, duration.toNanos());
    }
}
