package io.tickwork.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.Cli.Run;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The launcher's command lines: errors name the option and exit 2, help lists every option, defaults. */
class LoadToolTest {
    private static final String URL = "http://127.0.0.1:1/";

    private static void assertUsageError(Run r, String... mentions) {
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("error: "), r.err());
        for (String m : mentions) {
            assertTrue(r.err().contains(m), "'" + m + "' in: " + r.err());
        }
        assertTrue(r.out().isEmpty(), r.out());
        Cli.assertNoStackTrace(r);
    }

    /** An unclassified failure: the tools' own I/O messages as they are, anything else with its class. */
    @Test
    void anIoFailureIsSaidByItsMessageAndABugByItsClass() {
        assertEquals(
                "the warm-up got no ping answered",
                LoadTool.describe(new java.io.IOException("the warm-up got no ping answered")));
        assertEquals("java.io.IOException", LoadTool.describe(new java.io.IOException()));
        assertEquals("java.lang.IllegalStateException: x", LoadTool.describe(new IllegalStateException("x")));
    }

    @Test
    void unknownOptionsAreNamed() {
        assertUsageError(Cli.run("bench", "--nope", URL), "--nope", "LoadTool bench --help");
        assertUsageError(Cli.run("bench", "-z", URL), "-z");
        assertUsageError(Cli.run("idle", "--nope"), "--nope", "LoadTool idle --help");
        assertUsageError(Cli.run("pingpong", "run", "--nope"), "--nope", "LoadTool pingpong run --help");
        assertUsageError(Cli.run("nonsense"), "nonsense");
        assertUsageError(Cli.run("pingpong", "nonsense"), "nonsense");
    }

    @Test
    void badValuesAreNamedWithTheValue() {
        assertUsageError(Cli.run("bench", "--duration", "soon", URL), "--duration", "'soon'");
        assertUsageError(Cli.run("bench", "--warmup=3x", URL), "--warmup", "'3x'");
        assertUsageError(Cli.run("idle", "-D", "forever"), "--duration", "'forever'");
        assertUsageError(Cli.run("pingpong", "run", "-n", "lots"), "--pings", "'lots'");
        assertUsageError(Cli.run("bench", "--rate", "fast", URL), "--rate", "'fast'");
        assertUsageError(Cli.run("bench", "--rate"), "--rate");
        assertUsageError(Cli.run("bench", "-c", "0", URL), "--connections must be in [1, 1000000]: 0");
        assertUsageError(Cli.run("bench", "-D", "50ms", URL), "--duration must be in [100.00ms, 86400.00s]: 50.00ms");
        assertUsageError(Cli.run("bench", "--rate", "0", URL), "--rate must be in (0, 1000000000]: 0");
        assertUsageError(Cli.run("bench", "--rate", "-1", URL), "--rate must be in (0, 1000000000]: -1");
        assertUsageError(Cli.run("bench", "--rate", "2e9", URL), "--rate must be in (0, 1000000000]: 2000000000");
        assertUsageError(Cli.run("idle", "127.0.0.1"), "HOST:PORT must be host:port with a numeric port: 127.0.0.1");
        assertUsageError(
                Cli.run("bench", "--urls", "/nonexistent/urls.txt", URL),
                "--urls: no such file: /nonexistent/urls.txt");
        assertUsageError(
                Cli.run("bench", "127.0.0.1:9090/d/tree"),
                "must be an http://host:port/path URL: 127.0.0.1:9090/d/tree");
        assertUsageError(
                Cli.run("bench", "--rate", "1e-12", "-t", "2", "-D", "1s", URL),
                "--rate 1.0E-12 gives each of the 2 threads less than one request in --duration 1.0 s");
        assertUsageError(Cli.run("idle", "--sources", "-1"), "--sources must be in [0, 65536]: -1");
        assertUsageError(Cli.run("pingpong", "run", "-c", "20001"), "--connections must be in [1, 20000]: 20001");
        assertUsageError(Cli.run("pingpong", "server", "-m", "all"), "--model");
        assertUsageError(Cli.run("pingpong", "client"), "HOST:PORT");
    }

    @Test
    void aTargetThatDoesNotResolveIsNamed() {
        String host = "no-such-host.invalid";
        assertUsageError(Cli.run("bench", "http://" + host + "/"), "does not resolve", host);
        assertUsageError(Cli.run("idle", "--target", host + ":80"), "--target", "does not resolve", host);
        assertUsageError(Cli.run("idle", host + ":80"), "does not resolve", host);
        assertUsageError(Cli.run("pingpong", "client", host + ":9400"), "HOST:PORT", "does not resolve", host);
        assertUsageError(Cli.run("idle", "--first-source", host), "--first-source", host);
    }

    /** Every command of the tree, by its path of names, help command excluded. */
    private static Map<List<String>, CommandLine> commands() {
        Map<List<String>, CommandLine> all = new LinkedHashMap<>();
        PrintStream sink = new PrintStream(PrintStream.nullOutputStream());
        collect(List.of(), LoadTool.commandLine(sink, sink), all);
        return all;
    }

    private static void collect(List<String> path, CommandLine cl, Map<List<String>, CommandLine> all) {
        all.put(path, cl);
        cl.getSubcommands().forEach((name, sub) -> {
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                List<String> p = new ArrayList<>(path);
                p.add(name);
                collect(p, sub, all);
            }
        });
    }

    @Test
    void helpOfEveryCommandListsEveryOptionAndExitsZero() {
        Map<List<String>, CommandLine> all = commands();
        assertEquals(9, all.size(), all.keySet().toString()); // LoadTool, idle, idle-merge, bench, pingpong and its 4
        List<String> hidden = new ArrayList<>();
        for (Map.Entry<List<String>, CommandLine> e : all.entrySet()) {
            List<String> args = new ArrayList<>(e.getKey());
            args.add("--help");
            Run r = Cli.run(args.toArray(new String[0]));
            assertEquals(0, r.status(), args + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: LoadTool"), r.out());
            for (OptionSpec o : e.getValue().getCommandSpec().options()) {
                if (o.hidden()) {
                    hidden.addAll(List.of(o.names()));
                    continue;
                }
                for (String name : o.names()) {
                    assertTrue(r.out().contains(name), args + " help lacks " + name + ":\n" + r.out());
                }
            }
            for (String sub : e.getValue().getSubcommands().keySet()) {
                assertTrue(r.out().contains(sub), args + " help lacks command " + sub);
            }
        }
        // the one option a user never types: how idle --processes starts its children
        assertEquals(List.of("--child"), hidden);
    }

    @Test
    void optionDefaultsAreTheDocumentedOnes() {
        Map<List<String>, CommandLine> all = commands();
        // thread counts default to half the cores of the machine the test runs on
        String half = String.valueOf(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
        Map<String, String> bench = Map.of(
                "--connections", "64",
                "--depth", "1",
                "--threads", half,
                "--warmup", "0s",
                "--timeout", "5s",
                "--connect-timeout", "5s",
                "--seed", "1");
        Map<String, String> idle = new LinkedHashMap<>();
        idle.put("--target", "127.0.0.1:9090");
        idle.put("--connections", "10000");
        idle.put("--step", "5000");
        idle.put("--max-pending", "1000");
        idle.put("--first-source", "127.0.0.2");
        idle.put("--duration", "60s");
        idle.put("--connect-timeout", "10s");
        idle.put("--idle-min", "5s");
        idle.put("--idle-max", "45s");
        idle.put("--max-length", "4096");
        idle.put("--path", "/");
        idle.put("--timeout", "10s");
        idle.put("--seed", "1");
        idle.put("--min-available", "3g");
        Map<String, String> run = Map.of(
                "--model", "nio",
                "--server-threads", half,
                "--connections", "100",
                "--pings", "1m",
                "--warmup", "100k",
                "--threads", half,
                "--duration", "60s");
        Map<String, String> server =
                Map.of("--model", "nio", "--server-threads", half, "--port", "0", "--duration", "60s");
        Map<String, String> client = Map.of(
                "--connections", "100", "--pings", "1m", "--warmup", "100k", "--threads", half, "--duration", "60s");
        assertDefaults(all.get(List.of("bench")), bench);
        assertDefaults(all.get(List.of("idle")), idle);
        assertDefaults(all.get(List.of("pingpong", "run")), run);
        assertDefaults(all.get(List.of("pingpong", "server")), server);
        assertDefaults(all.get(List.of("pingpong", "client")), client);
        // options whose default depends on others have none in picocli: the commands resolve them
        for (String o : List.of("--duration", "--requests", "--rate", "--urls", "--header", "--hgrm")) {
            assertEquals(
                    null,
                    all.get(List.of("bench")).getCommandSpec().findOption(o).defaultValue(),
                    o);
        }
        for (String o : List.of("--sources", "--hold", "--stats-url", "--server-pid")) {
            assertEquals(
                    null,
                    all.get(List.of("idle")).getCommandSpec().findOption(o).defaultValue(),
                    o);
        }
    }

    private static void assertDefaults(CommandLine cl, Map<String, String> expected) {
        expected.forEach((option, value) -> {
            OptionSpec o = cl.getCommandSpec().findOption(option);
            // a default computed at start-up (thread counts) is the field's initial value instead
            String actual = o.defaultValue() != null ? o.defaultValue() : String.valueOf(o.initialValue());
            assertEquals(value, actual, cl.getCommandName() + " " + option);
            StringWriter help = new StringWriter();
            cl.usage(new PrintWriter(help));
            assertTrue(
                    help.toString().replaceAll("\\s+", " ").contains("(default " + value),
                    cl.getCommandName() + " help shows " + option + " default " + value + ":\n" + help);
        });
    }

    @Test
    void withoutACommandTheHelpGoesToStderrWithStatusTwo() {
        Run r = Cli.run();
        assertEquals(2, r.status());
        assertTrue(r.out().isEmpty());
        for (String c : List.of("idle", "idle-merge", "bench", "pingpong")) {
            assertTrue(r.err().contains(c), r.err());
        }
        r = Cli.run("help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("pingpong"), r.out());
        r = Cli.run("help", "bench");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("--depth"), r.out());
        r = Cli.run("pingpong");
        assertEquals(0, r.status(), "pingpong alone shows its help");
        assertTrue(r.out().contains("models"), r.out());
    }
}
