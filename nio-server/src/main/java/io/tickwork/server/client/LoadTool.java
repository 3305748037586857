package io.tickwork.server.client;

import io.tickwork.server.client.bench.BenchCommand;
import io.tickwork.server.client.common.OsError;
import io.tickwork.server.client.common.UsageException;
import io.tickwork.server.client.idle.IdleCommand;
import io.tickwork.server.client.pingpong.PingPongCommand;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * The launcher of the load clients: {@code LoadTool idle|bench|pingpong [options]}, each with
 * {@code --help}. Exit status 0 on a completed run (even one that hit an OS limit: that is a
 * result, reported with advice), 2 on a bad command line, 1 on an unexpected failure.
 *
 * <p>Thread safety: {@link #run} may be called concurrently; each call owns its threads and
 * sockets and releases them before returning.
 */
public final class LoadTool {
    private LoadTool() {}

    static final String HELP = """
      usage: LoadTool <command> [options]   (each command has --help)

      commands:
        idle       open and hold N idle connections over many loopback source addresses,
                   optionally with the http-kit workload (idle 5-45 s, request, read, repeat)
        bench      HTTP/1.1 load: closed loop (keep-alive or pipelined) or open loop at --rate,
                   req/s, MiB/s, errors by kind, latency percentiles, --json
        pingpong   4-byte Ping/Pong round trips against a server model (nio, threads, virtual,
                   kilim), in one process or as separate server and client
      """;

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /** Runs one command line; returns the exit status. Never throws for bad input. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            (args.length == 0 ? err : out).print(HELP);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            return switch (args[0]) {
                case "idle" -> IdleCommand.run(rest, out, err);
                case "bench" -> BenchCommand.run(rest, out, err);
                case "pingpong" -> PingPongCommand.run(rest, out, err);
                default ->
                    throw new UsageException("unknown command: " + args[0] + " (commands: idle, bench, pingpong)");
            };
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("interrupted");
            return 1;
        } catch (Exception | OutOfMemoryError e) {
            OsError kind = OsError.classify(e);
            err.println("error: " + (kind == OsError.OTHER ? e.toString() : kind.describe(e)));
            return 1;
        }
    }
}
