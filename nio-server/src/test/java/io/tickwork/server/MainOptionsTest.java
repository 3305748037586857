package io.tickwork.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.http.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** The server's command line: defaults, both option syntaxes, errors that name the option, help. */
class MainOptionsTest {
    /** Every option of the server, as docs/server.md spells them. */
    static final List<String> OPTIONS = List.of(
            "--port",
            "--host",
            "--threads",
            "--idle-timeout",
            "--header-timeout",
            "--drain-timeout",
            "--timer",
            "--workers",
            "--response-timeout",
            "--cached-words",
            "--data",
            "--max-connections",
            "--processes",
            "--worker-jvm-opts",
            "--help");

    private static ServerOptions parse(String... args) {
        ServerOptions o = new ServerOptions();
        ServerOptions.parse(o, args);
        return o;
    }

    /** Runs {@link Main#run} up to the start of the server; exit code, stdout, stderr. */
    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    /** A dictionary file that cannot be opened: exit 1, with the path and why on one line. */
    @Test
    void aDataFileThatCannotBeOpenedIsNamedWithTheReason(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String missing = dir.resolve("none.twd").toString();
        String[] r = run("--data", missing, "--port", "0");
        assertEquals("1", r[0], r[2]);
        assertEquals("tickwork: cannot open the dictionary: " + missing + ": no such file\n", r[2]);
        r = run("--data", dir.toString(), "--port", "0");
        assertEquals("1", r[0], r[2]);
        assertEquals("tickwork: cannot open the dictionary: " + dir + ": a directory, not a dictionary file\n", r[2]);
        r = run("--data", "", "--port", "0");
        assertEquals("1", r[0], r[2]);
        assertEquals("tickwork: cannot open the dictionary: an empty path names no dictionary file\n", r[2]);
        // a named pipe would block the open until a writer came: refused, not waited on
        java.nio.file.Path fifo = dir.resolve("pipe.twd");
        try {
            assertEquals(
                    0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        } catch (java.io.IOException | InterruptedException noMkfifo) {
            org.junit.jupiter.api.Assumptions.abort("no mkfifo here: " + noMkfifo);
        }
        r = run("--data", fifo.toString(), "--port", "0");
        assertEquals("1", r[0], r[2]);
        assertEquals(
                "tickwork: cannot open the dictionary: " + fifo
                        + ": not a regular file (a pipe or a device), not a dictionary file\n",
                r[2]);
    }

    @Test
    void defaults() {
        ServerOptions o = parse();
        assertEquals(9090, o.port);
        assertEquals("127.0.0.1", o.host);
        assertEquals(Runtime.getRuntime().availableProcessors(), o.threads);
        assertEquals(Duration.ofSeconds(60), o.idleTimeout);
        assertEquals(Duration.ofSeconds(5), o.drainTimeout);
        assertEquals(Duration.ofSeconds(10), o.headerTimeout);
        assertEquals("wheel-list", o.timer);
        assertEquals(0, o.workers);
        assertEquals(256, o.cachedWords);
        assertEquals(0, parse("--cached-words", "0").cachedWords);
        assertEquals(2, parse("--cached-words", "2").cachedWords);
        assertNull(o.data);
        assertEquals(1, o.processes);
        assertNull(o.maxConnections);
        assertEquals(Integer.MAX_VALUE, o.connectionCap(), "no cap in one process");
        assertEquals(
                WorkerLauncher.DEFAULT_CONNECTIONS, parse("--processes", "2").connectionCap());
        assertEquals(500, parse("--processes", "2", "--max-connections", "500").connectionCap());
        assertEquals(500, parse("--max-connections=500").connectionCap());
        assertNull(o.workerJvmOpts);
        assertEquals(-1, o.workerIndex);
    }

    @Test
    void valuesBothSyntaxesAndTheLastOfARepeatedOption() {
        ServerOptions o = parse(
                "--port",
                "0",
                "--threads=3",
                "--idle-timeout",
                "300ms",
                "--host",
                "0.0.0.0",
                "--header-timeout=90s",
                "--timer",
                "WHEEL_RING",
                "--workers",
                "4",
                "--data",
                "x.twd",
                "--port",
                "8080");
        assertEquals(8080, o.port);
        assertEquals(3, o.threads);
        assertEquals(Duration.ofMillis(300), o.idleTimeout);
        assertEquals("0.0.0.0", o.host);
        assertEquals(Duration.ofSeconds(90), o.headerTimeout);
        assertEquals("wheel-ring", o.timer);
        assertEquals(4, o.workers);
        assertEquals(Paths.get("x.twd"), o.data);
        assertEquals(Duration.ofMillis(1500), parse("--idle-timeout", "1.5").idleTimeout);
        assertEquals(Duration.ofMinutes(2), parse("--idle-timeout", "2m").idleTimeout);
    }

    /** The load tools' duration grammar (their OptionValuesTest has the same cases), at least 1 ms. */
    @Test
    void durationsTakeTheLoadToolsGrammar() {
        ServerOptions.DurationConverter d = new ServerOptions.DurationConverter();
        assertEquals(Duration.ofMillis(250), d.convert("250ms"));
        assertEquals(Duration.ofMillis(1500), d.convert("1.5s"));
        assertEquals(Duration.ofMinutes(2), d.convert("2m"));
        assertEquals(Duration.ofHours(1), d.convert("1h"));
        assertEquals(Duration.ofMillis(1500), d.convert("1500000us"));
        assertEquals(Duration.ofSeconds(7), d.convert("7"));
        assertEquals(Duration.ofMillis(1), d.convert("1ms"));
        // exact: a double would make these 1000.999999 and 1016.999999 ms
        assertEquals(Duration.ofMillis(1001), d.convert("1.001"));
        assertEquals(Duration.ofMillis(1017), d.convert("1.017s"));
        assertEquals(HttpServer.MAX_TIMEOUT, d.convert("720h"));
        for (String bad : new String[] {
            "soon",
            "-1s",
            "5x",
            "",
            "Infinity",
            "500us",
            "0",
            "40d",
            "1f",
            "0x10",
            "NaN",
            "1e3s",
            "1.9ms",
            "1500us",
            "0.0015s",
            "720.001h",
            "9223372036854775808us"
        }) {
            CommandLine.TypeConversionException e =
                    assertThrows(CommandLine.TypeConversionException.class, () -> d.convert(bad));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource({
        "--port, 70000",
        "--port, -1",
        "--port, abc",
        "--threads, 0",
        "--threads, 1025",
        "--workers, -1",
        "--port, +9090",
        "--port, \uFF11\uFF19\uFF11\uFF16\uFF10", // fullwidth digits, which Integer.parseInt reads
        "--threads, \u0662", // an Arabic-Indic two
        "--cached-words, 3",
        "--cached-words, 1",
        "--cached-words, -1",
        "--cached-words, 8192",
        "--idle-timeout, soon",
        "--idle-timeout, 0ms",
        "--idle-timeout, 999h",
        "--header-timeout, -2m",
        "--header-timeout, 721h",
        "--host, no.such.host.invalid",
        "--timer, sundial",
        "--processes, 0",
        "--processes, 257",
        "--max-connections, 0",
        "--max-connections, lots",
        "--worker-jvm-opts, Xmx1g",
        "--worker-jvm-opts, -Xmx1g Xss1m"
    })
    void aBadValueIsRejectedNamingTheOptionAndTheValue(String option, String value) {
        ParameterException e = assertThrows(ParameterException.class, () -> parse(option, value));
        assertTrue(e.getMessage().contains("'" + option + "'"), e.getMessage());
        assertTrue(e.getMessage().endsWith(": " + value), e.getMessage());
        e = assertThrows(ParameterException.class, () -> parse("--port", "1", option + "=" + value));
        assertTrue(e.getMessage().contains("'" + option + "'"), e.getMessage());
    }

    @Test
    void aBadOptionIsNamedAndExitsTwoWithTheUsage() {
        String[] r = run("--threads", "0");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("tickwork: "), r[2]);
        assertTrue(r[2].contains("'--threads'") && r[2].contains("1..1024: 0"), r[2]);
        assertTrue(r[2].contains("usage: java -jar tickwork-server.jar"), r[2]);
        assertEquals("", r[1]);
        for (String[] args : new String[][] {{"--bogus", "1"}, {"--help", "--bogus"}, {"--port"}, {"stray"}}) {
            r = run(args);
            assertEquals("2", r[0], String.join(" ", args) + ": " + r[2]);
            String named = args[args.length == 1 ? 0 : args[0].equals("--help") ? 1 : 0];
            assertTrue(r[2].contains(named), r[2]);
        }
    }

    @Test
    void helpListsEveryOptionWithItsDefaultAndExitsZero() {
        String[] r = run("--help");
        assertEquals("0", r[0]);
        assertEquals("", r[2]);
        String help = r[1];
        assertTrue(help.startsWith("usage: java -jar tickwork-server.jar"), help);
        for (String option : OPTIONS) {
            assertTrue(help.contains(option), option + " missing from\n" + help);
        }
        for (OptionSpec spec :
                new CommandLine(new ServerOptions()).getCommandSpec().options()) {
            if (spec.hidden()) {
                assertFalse(help.contains(spec.longestName()), spec.longestName() + " is internal");
                continue;
            }
            assertTrue(OPTIONS.contains(spec.longestName()), "undocumented option " + spec.longestName());
        }
        for (String timer : Timers.names()) {
            assertTrue(help.contains(timer), timer + " missing from\n" + help);
        }
        assertTrue(help.contains("default 9090"), help);
        assertTrue(help.contains("default 127.0.0.1"), help);
        assertTrue(help.contains("one per core, " + Runtime.getRuntime().availableProcessors() + " here"), help);
        for (String jvmOption : WorkerLauncher.DEFAULT_JVM_OPTS.split(" ")) {
            assertTrue(help.contains(jvmOption), jvmOption + " not whole in\n" + help); // none wrapped inside
        }
        assertEquals(
                WorkerLauncher.DEFAULT_JVM_OPTS,
                WorkerLauncher.DEFAULT_JVM_OPTS_HELP.replace("%n  ", " ").strip());
        String squeezed = help.replaceAll("\\s+", "");
        assertTrue(squeezed.contains("19000perworker"), help);
        assertEquals(help, run("-h")[1]);
        assertFalse(help.contains("\u001B["), "no ANSI colours");
    }

    @Test
    void workerOnlyOptionsWithoutProcessesExitTwoNamingTheProblem() {
        String[] r = run("--worker-jvm-opts", "-Xmx1g");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("tickwork: --worker-jvm-opts needs --processes 2 or more"), r[2]);
        r = run("--response-timeout", "5s");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("tickwork: --response-timeout needs --workers"), r[2]);
        r = run("--processes", "2", "--worker-index", "0");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("tickwork: a worker (--worker-index) does not take --processes"), r[2]);
    }

    @Test
    void aWorkerGetsTheDefaultsThenTheUsersJvmOptionsAndTheServerOptionsWithThePort() {
        ServerOptions o = parse(
                "--processes=3",
                "--threads",
                "2",
                "--idle-timeout",
                "1.5s",
                "--header-timeout",
                "300ms",
                "--drain-timeout",
                "12s",
                "--timer",
                "rb-tree",
                "--workers",
                "4",
                "--response-timeout",
                "2s",
                "--cached-words",
                "64",
                "--data",
                "x.twd",
                "--host",
                "0.0.0.0",
                "--worker-jvm-opts",
                " -Xmx512m   -XX:+AlwaysPreTouch ");
        List<String> c = WorkerLauncher.command(o, 2, 4567);
        assertEquals(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), c.get(0));
        int main = c.indexOf(Main.class.getName());
        List<String> jvm = c.subList(1, main);
        List<String> defaults = List.of(WorkerLauncher.DEFAULT_JVM_OPTS.split(" "));
        assertEquals(defaults, jvm.subList(0, defaults.size()));
        assertEquals(
                List.of("-Xmx512m", "-XX:+AlwaysPreTouch", "-cp", System.getProperty("java.class.path")),
                jvm.subList(jvm.size() - 4, jvm.size()),
                "the user's options after the defaults, so they win");
        ServerOptions w = parse(c.subList(main + 1, c.size()).toArray(new String[0]));
        assertEquals(2, w.workerIndex);
        assertEquals(1, w.processes);
        assertEquals(4567, w.port);
        assertEquals("0.0.0.0", w.host);
        assertEquals(2, w.threads);
        assertEquals(Duration.ofMillis(1500), w.idleTimeout);
        assertEquals(Duration.ofMillis(300), w.headerTimeout);
        assertEquals(Duration.ofSeconds(12), w.drainTimeout);
        assertEquals("rb-tree", w.timer);
        assertEquals(4, w.workers);
        assertEquals(Duration.ofSeconds(2), w.responseTimeout);
        assertEquals(64, w.cachedWords);
        assertEquals(Paths.get("x.twd"), w.data);
        assertEquals(WorkerLauncher.DEFAULT_CONNECTIONS, w.connectionCap());
        assertNull(w.workerJvmOpts);
    }

    @Test
    void manyWorkersGetC1CodeOnlyAndTheUsersOptionsStillWin() {
        int cores = 2; // as on the 2-core machine: 16 workers keep C2, 17 get C1 only
        int many = WorkerLauncher.C2_WORKERS_PER_CORE * cores;
        List<String> few = WorkerLauncher.command(parse("--processes=" + many), 0, 4567, cores);
        assertFalse(few.contains(WorkerLauncher.C1_ONLY), few.toString());
        List<String> c = WorkerLauncher.command(
                parse("--processes=" + (many + 1), "--worker-jvm-opts", "-XX:TieredStopAtLevel=4"), 0, 4567, cores);
        int defaults = WorkerLauncher.DEFAULT_JVM_OPTS.split(" ").length;
        assertEquals(WorkerLauncher.C1_ONLY, c.get(1 + defaults), c.toString());
        assertTrue(c.indexOf("-XX:TieredStopAtLevel=4") > c.indexOf(WorkerLauncher.C1_ONLY), c.toString());
    }

    /**
     * Without {@code --threads} the workers share the cores (at least one loop each) instead of
     * each running a loop per core: 4 workers on 64 cores run 16 loops each, 89 on 2 cores one each;
     * a {@code --threads} given goes to every worker as it is.
     */
    @ParameterizedTest
    @CsvSource({"64, 4, 16", "64, 3, 21", "2, 2, 1", "2, 89, 1", "16, 1, 16", "2048, 2, 512"})
    void workersShareTheCoresUnlessThreadsIsGiven(int cores, int processes, int loops) {
        List<String> c = WorkerLauncher.command(parse("--processes=" + processes), 0, 4567, cores);
        assertEquals(Integer.toString(loops), c.get(c.indexOf("--threads") + 1), c.toString());
        List<String> given =
                WorkerLauncher.command(parse("--processes=" + processes, "--threads", "3"), 0, 4567, cores);
        assertEquals("3", given.get(given.indexOf("--threads") + 1), given.toString());
    }
}
