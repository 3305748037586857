package io.tickwork.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

    static String sample() throws IOException {
        try (InputStream in = ReportTest.class.getResourceAsStream("sample.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsJmhJsonShapes() throws IOException {
        // exponent and integer numbers, an escaped character in a member name, a number as a parameter
        String json = "[{\"benchmark\":\"p.C.m\",\"mode\":\"avgt\",\"params\":{\"n\":\"7\",\"k\":2},"
                + "\"primaryMetric\":{\"score\":2.5e3,\"scoreError\":-3,\"scoreUnit\":\"ns/op\"},"
                + "\"secondaryMetrics\":{\"\\u00b7gc.alloc.rate.norm\":{\"score\":16,\"scoreError\":\"NaN\"}}}]";
        JmhResult r = JmhResult.parse(json).get(0);
        assertEquals("p.C.m", r.benchmark);
        assertEquals("avgt", r.mode);
        assertEquals(Map.of("n", "7", "k", "2.0"), r.params);
        assertEquals(List.of("n", "k"), List.copyOf(r.params.keySet()), "parameter order kept");
        assertEquals(2500.0, r.score);
        assertEquals(-3.0, r.error);
        assertEquals("ns/op", r.unit);
        assertEquals(16.0, r.allocBytesPerOp);
        assertTrue(Double.isNaN(r.allocError));
    }

    @Test
    void malformedJsonIsAnErrorNamingWhere() {
        IOException e = assertThrows(IOException.class, () -> JmhResult.parse("{\"a\" 1}"));
        assertTrue(e.getMessage().contains("line: 1, column: 6"), e.getMessage());
        assertThrows(IOException.class, () -> JmhResult.parse("[1,2"));
        assertThrows(IOException.class, () -> JmhResult.parse("[] x"), "text after the document");
        assertThrows(IllegalArgumentException.class, () -> JmhResult.parse("{}"), "not an array of results");
        assertThrows(IllegalArgumentException.class, () -> JmhResult.parse("[{\"benchmark\":\"p.C.m\"}]"));
    }

    /** Bad inputs are refused with one line naming the file; a cell measured twice is refused too. */
    @Test
    void inputsThatCannotMakeAReportAreRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.json");
        Report.UsageError e = assertThrows(Report.UsageError.class, () -> Report.read(List.of(missing)));
        assertEquals(missing + ": no such file", e.getMessage());
        assertEquals(2, e.status);

        Path truncated = Files.writeString(dir.resolve("truncated.json"), "[{\"benchmark\":");
        e = assertThrows(Report.UsageError.class, () -> Report.read(List.of(truncated)));
        assertTrue(e.getMessage().startsWith(truncated + ": not JMH's JSON (-rf json): "), e.getMessage());
        assertEquals(2, e.status);

        Path empty = Files.writeString(dir.resolve("empty.json"), "[]");
        e = assertThrows(Report.UsageError.class, () -> Report.read(List.of(empty)));
        assertEquals(empty + ": no results (did every benchmark fail?)", e.getMessage());
        assertEquals(1, e.status);

        Path a = Files.writeString(dir.resolve("a.json"), sample());
        Path b = Files.writeString(dir.resolve("b.json"), sample());
        e = assertThrows(Report.UsageError.class, () -> Report.read(List.of(a, b)));
        assertTrue(e.getMessage().contains(" is in " + a + " and in " + b), e.getMessage());
        assertEquals(7, Report.read(List.of(a)).size(), "one run reads whole");
    }

    @Test
    void aCellShowsTheMedianThenTheMeanAndErrorAndAllocationOnlyAboveResidue() {
        JmhResult r = new JmhResult("p.C.m", "thrpt", Map.of(), 10.4e6, 0.5e6, 11.0e6, "ops/s", 0.00005, 0.0);
        assertEquals("11.0M (10.4M ± 500k) (~0 B/op)", Report.cell(r));
        JmhResult allocating = new JmhResult("p.C.m", "thrpt", Map.of(), 2.0, 0.1, 2.0, "ops/s", 24.0, 0.0);
        assertEquals("2.00 (2.00 ± 0.100) (24.0 B/op)", Report.cell(allocating));
        Report report = new Report(List.of(r), Pattern.compile("m"), null);
        assertTrue(!report.groups().get(0).hasAlloc(), "residue alone draws no allocation chart");
        assertTrue(new Report(List.of(allocating), Pattern.compile("m"), null)
                .groups()
                .get(0)
                .hasAlloc());
    }

    @Test
    void parsesScoresErrorsAndAllocation() throws IOException {
        List<JmhResult> rs = JmhResult.parse(sample());
        assertEquals(7, rs.size());
        JmhResult first = rs.get(0);
        assertEquals("OrderedBench", first.className());
        assertEquals("run", first.method());
        assertEquals(4.0e7, first.score);
        assertEquals(24.0, first.allocBytesPerOp);
        assertTrue(Double.isNaN(rs.get(1).error), "JMH's \"NaN\" string is read as NaN");
        assertTrue(Double.isNaN(rs.get(2).allocBytesPerOp), "no -prof gc, no allocation figure");
    }

    @Test
    void groupsByVariantParamOrByMethod() throws IOException {
        Report report = new Report(JmhResult.parse(sample()), Pattern.compile("KeyedSerial|tickwork.*"), null);
        List<Report.Group> groups = report.groups();
        assertEquals(2, groups.size());
        Report.Group order = groups.get(0);
        assertEquals(List.of("KeyedSerial", "guava", "jctools"), List.copyOf(order.variants));
        assertEquals(List.of("keys=1", "keys=64"), List.copyOf(order.cells.keySet()));
        Report.Group search = groups.get(1);
        assertEquals(
                List.of("binarySearch", "tickworkEytzinger"), List.copyOf(search.variants), "methods are variants");
        assertEquals(List.of("n=2000"), List.copyOf(search.cells.keySet()));
    }

    @Test
    void verdictIsLevelWhenErrorIntervalsOverlap() {
        JmhResult ours = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 100, 10, 101, "ops/s", 0, 0);
        JmhResult close = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 95, 10, 94, "ops/s", 0, 0);
        JmhResult far = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 50, 5, 50, "ops/s", 0, 0);
        JmhResult noError = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 50, Double.NaN, "ops/s", 0, 0);
        assertEquals("level", Report.verdict(101.0 / 94, ours, close));
        assertEquals("won", Report.verdict(101.0 / 50, ours, far));
        assertEquals("lost", Report.verdict(50.0 / 101, far, ours));
        assertEquals("no error", Report.verdict(2, ours, noError));
        // intervals apart, but the medians order the two the other way from the means: level
        JmhResult bimodal = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 6, 0.5, 10, "ops/s", 0, 0);
        JmhResult steady = new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 8, 0.5, 8, "ops/s", 0, 0);
        assertEquals("level", Report.verdict(10.0 / 8, bimodal, steady));
        JmhResult slowMean = new JmhResult("a.B.c", "avgt", java.util.Map.of(), 12, 0.5, 6, "ns/op", 0, 0);
        JmhResult fastMean = new JmhResult("a.B.c", "avgt", java.util.Map.of(), 8, 0.5, 8, "ns/op", 0, 0);
        assertEquals("level", Report.verdict(8.0 / 6, slowMean, fastMean));
        JmhResult slow = new JmhResult("a.B.c", "avgt", java.util.Map.of(), 12, 0.5, 12, "ns/op", 0, 0);
        assertEquals("won", Report.verdict(12.0 / 8, fastMean, slow), "lower is better in avgt");
        assertEquals(
                50.0,
                JmhResult.median(new com.fasterxml.jackson.databind.ObjectMapper()
                        .valueToTree(new double[][] {{10, 50, 70}, {40, 60}})),
                1e-9);
    }

    @Test
    void resultsOfOneBenchmarkInTwoUnitsAreRefused() {
        JmhResult perMs =
                new JmhResult("a.U.run", "thrpt", java.util.Map.of("impl", "keyed"), 2_000, 10, 2_000, "ops/ms", 0, 0);
        JmhResult perS =
                new JmhResult("a.U.run", "thrpt", java.util.Map.of("impl", "peer"), 1.5e6, 1e4, 1.5e6, "ops/s", 0, 0);
        Report report = new Report(List.of(perMs, perS), Pattern.compile("keyed"), "impl");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, report::groups);
        assertTrue(e.getMessage().contains("ops/ms") && e.getMessage().contains("ops/s"), e.getMessage());
    }

    @Test
    void ratioIsSpeedupOverBestPeerInBothModes() throws IOException {
        Report report = new Report(JmhResult.parse(sample()), Pattern.compile("KeyedSerial|tickwork.*"), null);
        List<Report.Group> groups = report.groups();
        String order = report.table(groups.get(0));
        // keys=1: 40M vs best peer jctools 32M -> 1.25; keys=64: 20M vs guava 25M -> 0.80
        assertTrue(order.contains("1.25× won (KeyedSerial vs jctools)"), order);
        assertTrue(order.contains("0.80× "), order);
        assertTrue(order.contains("(24.0 B/op)"), order);
        assertEquals(
                "1.00 (~0 B/op)",
                Report.cell(new JmhResult("a.B.c", "thrpt", java.util.Map.of(), 1, Double.NaN, "ops/s", 0.0004, 0)));
        String search = report.table(groups.get(1));
        // avgt: lower is better, 60 ns vs 20 ns -> ours 3x faster
        assertTrue(search.contains("3.00× ") && search.contains("(tickworkEytzinger vs binarySearch)"), search);
    }

    /** The best of each side is picked by the median, the statistic the ratio is of, not by the mean. */
    @Test
    void theBestOfEachSideIsPickedByItsMedian() {
        // peer "skewed": a higher mean (one fast iteration) but a lower median than peer "steady"
        JmhResult ours = new JmhResult("a.B.c", "thrpt", Map.of("impl", "ours"), 100, 5, 100, "ops/s", 0, 0);
        JmhResult skewed = new JmhResult("a.B.c", "thrpt", Map.of("impl", "skewed"), 90, 40, 70, "ops/s", 0, 0);
        JmhResult steady = new JmhResult("a.B.c", "thrpt", Map.of("impl", "steady"), 80, 5, 80, "ops/s", 0, 0);
        Report report = new Report(List.of(ours, skewed, steady), Pattern.compile("ours"), null);
        String table = report.table(report.groups().get(0));
        assertTrue(table.contains("1.25× won (ours vs steady)"), table);
    }

    /** With a headline, a row that has one compares it, not the best of ours; a row without compares the best. */
    @Test
    void aHeadlineVariantIsComparedWhereTheRowHasIt() {
        JmhResult copyA =
                new JmhResult("a.B.c", "thrpt", Map.of("impl", "ours-a", "n", "1"), 110, 5, 110, "ops/s", 0, 0);
        JmhResult headline =
                new JmhResult("a.B.c", "thrpt", Map.of("impl", "ours-h", "n", "1"), 100, 5, 100, "ops/s", 0, 0);
        JmhResult peer = new JmhResult("a.B.c", "thrpt", Map.of("impl", "peer", "n", "1"), 80, 5, 80, "ops/s", 0, 0);
        JmhResult copyA2 =
                new JmhResult("a.B.c", "thrpt", Map.of("impl", "ours-a", "n", "2"), 120, 5, 120, "ops/s", 0, 0);
        JmhResult peer2 = new JmhResult("a.B.c", "thrpt", Map.of("impl", "peer", "n", "2"), 80, 5, 80, "ops/s", 0, 0);
        Report report = new Report(
                List.of(copyA, headline, peer, copyA2, peer2),
                Pattern.compile("ours-.*"),
                "impl",
                Pattern.compile("ours-h"));
        String table = report.table(report.groups().get(0));
        assertTrue(table.contains("1.25× won (ours-h vs peer)"), table);
        assertTrue(table.contains("1.50× won (ours-a vs peer)"), table);
    }

    @Test
    void writesMarkdownAndDecodablePngs(@TempDir Path dir) throws IOException {
        Report report = new Report(JmhResult.parse(sample()), Pattern.compile("KeyedSerial|tickwork.*"), null);
        List<Path> written = report.write(dir, "demo", "Demo suite", "2026-11-21, test");
        assertEquals(3, written.size(), written.toString());
        String md = Files.readString(written.get(0));
        assertTrue(md.startsWith("# Demo suite"), md);
        assertTrue(md.contains("![OrderedBench.run (thrpt, ops/s)](demo-OrderedBench-run-thrpt.png)"), md);
        BufferedImage withAlloc = ImageIO.read(written.get(1).toFile());
        BufferedImage scoresOnly = ImageIO.read(written.get(2).toFile());
        assertEquals(480 + 320, withAlloc.getHeight(), "score chart with the allocation chart below it");
        assertEquals(480, scoresOnly.getHeight(), "no -prof gc figures, no allocation chart");
    }

    /**
     * A result that cannot be judged is refused rather than turned into a verdict: a score that is
     * not a finite number (a NaN peer would have won every comparison against it), a measured
     * iteration that is not, and a missing or unknown mode (which decides which way a ratio goes).
     */
    @Test
    void resultsThatCannotBeJudgedAreRefused() {
        String ok =
                "{\"benchmark\":\"p.C.m\",\"mode\":\"thrpt\",\"primaryMetric\":{\"score\":5,\"scoreUnit\":\"ops/s\","
                        + "\"rawData\":[[4,5,6]]}}";
        assertEquals(5.0, assertDoesNotThrowParse("[" + ok + "]").median);
        String[][] bad = {
            {ok.replace("\"score\":5", "\"score\":\"NaN\""), "score NaN is not a finite number"},
            {ok.replace("\"score\":5,", ""), "score null is not a finite number"},
            {ok.replace("[[4,5,6]]", "[[4,\"NaN\",6]]"), "a measured iteration in rawData is not a finite number"},
            {ok.replace("\"mode\":\"thrpt\",", ""), "mode null is none of JMH's"},
            {ok.replace("thrpt", "throughput"), "mode throughput is none of JMH's"},
            {ok.replace("\"benchmark\":\"p.C.m\",", ""), "result without a benchmark name"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> JmhResult.parse("[" + b[0] + "]"), b[0]);
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    private static JmhResult assertDoesNotThrowParse(String json) {
        try {
            return JmhResult.parse(json).get(0);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(
                4.5,
                assertDoesNotThrowParse("[{\"benchmark\":\"p.C.m\",\"mode\":\"avgt\","
                                + "\"primaryMetric\":{\"score\":5,\"rawData\":[[9,4],[1,5]]}}]")
                        .median);
    }

    /**
     * The command refuses what would make a report that says the wrong thing: an unknown option (a
     * typo would have written docs/bench/report.md), an option given twice, a pattern that does
     * not compile, and results of two JVMs; an {@code --ours} or {@code --headline} that matches
     * nothing is warned of (a run of peers alone, or one narrowed with {@code -p}, is legitimate).
     */
    @Test
    void theCommandRefusesWhatWouldMakeAWrongOrMixedReport(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("r.json");
        Files.writeString(in, sample());
        String[][] cases = {
            {"--in", in.toString(), "--output", dir.toString()},
            {"--in", in.toString(), "--out", dir.toString(), "--out", dir.toString()},
            {"--in", in.toString(), "--out", dir.toString(), "--ours", "("},
        };
        String[] says = {"unknown argument --output", "--out given twice", "--ours ( is not a regular expression"};
        for (int i = 0; i < cases.length; i++) {
            String[] args = cases[i];
            Report.UsageError e = assertThrows(Report.UsageError.class, () -> Report.run(args));
            assertEquals(2, e.status);
            assertTrue(e.getMessage().startsWith(says[i]), e.getMessage());
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(in), files.collect(java.util.stream.Collectors.toList()), "nothing written");
        }
        String jdk17 = "{\"jdkVersion\":\"17.0.15\",\"vmName\":\"OpenJDK 64-Bit Server VM\",\"vmVersion\":\"17.0.15\","
                + "\"benchmark\":\"p.C.m\",\"mode\":\"thrpt\",\"params\":{\"impl\":\"ours\"},"
                + "\"primaryMetric\":{\"score\":5,\"scoreUnit\":\"ops/s\"}}";
        String jdk25 = jdk17.replace("17.0.15", "25.0.1").replace("\"ours\"", "\"peer\"");
        Path a = Files.writeString(dir.resolve("a.json"), "[" + jdk17 + "]");
        Path b = Files.writeString(dir.resolve("b.json"), "[" + jdk25 + "]");
        Report.UsageError mixed = assertThrows(Report.UsageError.class, () -> Report.read(List.of(a, b)));
        assertTrue(mixed.getMessage().contains("a report compares one JVM"), mixed.getMessage());
        Path both = Files.writeString(dir.resolve("both.json"), "[" + jdk17 + "," + jdk25 + "]");
        assertThrows(Report.UsageError.class, () -> Report.read(List.of(both)), "in one file too");

        List<JmhResult> results = JmhResult.parse(sample());
        assertTrue(new Report(results, Pattern.compile("nothing-matches"), null)
                .variantWarnings()
                .get(0)
                .startsWith("--ours nothing-matches matches none of the variants"));
        assertTrue(new Report(results, Pattern.compile("KeyedSerial|tickwork.*"), null, Pattern.compile("zzz"))
                .variantWarnings()
                .get(0)
                .startsWith("--headline zzz matches none of ours"));
        assertEquals(List.of(), new Report(results, Pattern.compile("KeyedSerial|tickwork.*"), null).variantWarnings());
    }

    /**
     * The bars are the values the table quotes as JMH's means, with their errors; a variant run
     * without {@code -prof gc} gets no allocation bar rather than one of 0 B/op, and allocation
     * below the residue is drawn as 0.
     */
    @Test
    void chartBarsAreTheMeansAndAMissingAllocationIsNoBar() {
        JmhResult oursA = new JmhResult("p.C.m", "thrpt", Map.of("impl", "ours", "n", "1"), 10, 1, 11, "ops/s", 24, 2);
        JmhResult oursB =
                new JmhResult("p.C.m", "thrpt", Map.of("impl", "ours", "n", "2"), 20, 2, 21, "ops/s", 0.001, 0);
        JmhResult peer = new JmhResult(
                "p.C.m", "thrpt", Map.of("impl", "peer", "n", "1"), 30, 3, 31, "ops/s", Double.NaN, Double.NaN);
        Report report = new Report(List.of(oursA, oursB, peer), Pattern.compile("ours"), "impl");
        Report.Group g = report.groups().get(0);
        List<String> rows = new java.util.ArrayList<>(g.cells.keySet());
        assertEquals(List.of("n=1", "n=2"), rows);
        double[][] scores = Report.series(g, "ours", rows, false);
        assertEquals(List.of(10.0, 20.0), List.of(scores[0][0], scores[0][1]));
        assertEquals(List.of(1.0, 2.0), List.of(scores[1][0], scores[1][1]));
        double[][] peerScores = Report.series(g, "peer", rows, false);
        assertEquals(List.of(30.0, 0.0), List.of(peerScores[0][0], peerScores[0][1]), "no result in row n=2: 0");
        double[][] alloc = Report.series(g, "ours", rows, true);
        assertEquals(List.of(24.0, 0.0), List.of(alloc[0][0], alloc[0][1]), "residue drawn as 0");
        assertEquals(null, Report.series(g, "peer", rows, true), "no -prof gc: no bar");
    }

    /** Rows of fewer than 3 forks say so beside their verdict. */
    @Test
    void aVerdictFromFewerThanThreeForksSaysHowMany() {
        JmhResult ours = new JmhResult("a.B.c", "thrpt", Map.of("impl", "ours"), 100, 1, 100, "ops/s", 0, 0, "17", 1);
        JmhResult peer = new JmhResult("a.B.c", "thrpt", Map.of("impl", "peer"), 50, 1, 50, "ops/s", 0, 0, "17", 3);
        Report report = new Report(List.of(ours, peer), Pattern.compile("ours"), "impl");
        String table = report.table(report.groups().get(0));
        assertTrue(table.contains("2.00× won (ours vs peer), 1 fork"), table);
    }

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /**
     * A benchmark without the variant parameter (virtual threads beside the schedulers), filed
     * under another with {@code --map}, is a peer in every row that agrees with the parameters it
     * has, and is the best peer where it is: the ratio must not leave it out.
     */
    @Test
    void aMappedBenchmarkIsAPeerInEveryRowItAgreesWith() throws Exception {
        List<JmhResult> results = List.of(
                new JmhResult(
                        "p.Switch.ping",
                        "thrpt",
                        params("placement", "placed", "scheduler", "ours", "threads", "2"),
                        200,
                        5,
                        200,
                        "ops/s",
                        0,
                        0),
                new JmhResult(
                        "p.Switch.ping",
                        "thrpt",
                        params("placement", "placed", "scheduler", "kilim", "threads", "2"),
                        40,
                        5,
                        40,
                        "ops/s",
                        0,
                        0),
                new JmhResult(
                        "p.Switch.ping",
                        "thrpt",
                        params("placement", "free", "scheduler", "ours", "threads", "2"),
                        150,
                        5,
                        150,
                        "ops/s",
                        0,
                        0),
                new JmhResult(
                        "p.Switch.ping",
                        "thrpt",
                        params("placement", "free", "scheduler", "kilim", "threads", "2"),
                        30,
                        5,
                        30,
                        "ops/s",
                        0,
                        0),
                new JmhResult(
                        "p.Switch.ping",
                        "thrpt",
                        params("placement", "placed", "scheduler", "ours", "threads", "1"),
                        90,
                        5,
                        90,
                        "ops/s",
                        0,
                        0),
                new JmhResult("p.VirtualTwo.queuePing", "thrpt", Map.of(), 50, 5, 50, "ops/s", 0, 0),
                new JmhResult("p.VirtualTwo.other", "thrpt", Map.of(), 1, 1, 1, "ops/s", 0, 0));
        List<JmhResult> mapped = ResultMapping.applyAll(
                List.of(ResultMapping.parse("VirtualTwo\\.queuePing -> Switch.ping scheduler=virtual threads=2")),
                results);
        Report report = new Report(mapped, Pattern.compile("ours"), "scheduler");
        List<Report.Group> groups = report.groups();
        assertEquals(2, groups.size(), "the unmapped result keeps its own group");
        String table = report.table(groups.get(0));
        assertTrue(table.contains("| placement=placed threads=2 |"), table);
        assertTrue(table.contains("4.00× won (ours vs virtual)"), table);
        assertTrue(table.contains("3.00× won (ours vs virtual)"), table);
        assertTrue(table.contains("| placement=placed threads=1 | 90.0 (90.0 ± 5.00) (~0 B/op) |  |  |  |"), table);
        assertTrue(!table.contains("| threads=2 |"), "the mapped row is joined, not kept: " + table);

        String[] refused = {
            "VirtualTwo\\.queuePing Switch.ping", // no arrow
            "( -> Switch.ping", // not a regex
            "x -> Switch.ping threads", // not k=v
            "x -> noMethod",
        };
        for (String spec : refused) {
            Report.UsageError e = assertThrows(Report.UsageError.class, () -> ResultMapping.parse(spec), spec);
            assertEquals(2, e.status);
        }
        Report.UsageError none = assertThrows(
                Report.UsageError.class,
                () -> ResultMapping.applyAll(List.of(ResultMapping.parse("Nowhere -> Switch.ping")), results));
        assertTrue(none.getMessage().contains("matches no result"), none.getMessage());
        String[] refusedToo = {" -> Switch.ping", "x -> Switch.ping threads=1 threads=2"};
        for (String spec : refusedToo) {
            assertThrows(Report.UsageError.class, () -> ResultMapping.parse(spec), spec);
        }
        // a mapped result that agrees with no row of real results, or lands in no group of them,
        // or meets its own variant in a row, would be a peer of nothing or of two cells: refused
        String[][] unjoinable = {
            {"VirtualTwo\\.queuePing -> Switch.ping scheduler=virtual threads=3", "agrees with no row"},
            {"VirtualTwo\\.queuePing -> Nowhere.ping scheduler=virtual", "names no benchmark"},
            {"VirtualTwo\\.queuePing -> Switch.ping scheduler=kilim threads=2", "which has a result for kilim"},
        };
        for (String[] c : unjoinable) {
            List<JmhResult> m = ResultMapping.applyAll(List.of(ResultMapping.parse(c[0])), results);
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> new Report(m, Pattern.compile("ours"), "scheduler").groups());
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
        }
        Report.UsageError twice = assertThrows(
                Report.UsageError.class,
                () -> ResultMapping.applyAll(
                        List.of(ResultMapping.parse("Switch\\.ping -> Other.ping threads=3")), results));
        assertTrue(twice.getMessage().contains("already has the parameter threads"), twice.getMessage());
    }

    /**
     * Two benchmark classes of one short name in two packages are two groups, never one row, with
     * a chart file and a heading each (by the full name); a class alone keeps its short name.
     */
    @Test
    void classesOfOneNameInTwoPackagesAreNotJoined() {
        JmhResult ours = new JmhResult("a.Bench.run", "thrpt", Map.of("impl", "ours"), 100, 1, 100, "ops/s", 0, 0);
        JmhResult peer = new JmhResult("b.Bench.run", "thrpt", Map.of("impl", "peer"), 50, 1, 50, "ops/s", 0, 0);
        JmhResult other = new JmhResult("a.Other.run", "thrpt", Map.of("impl", "ours"), 5, 1, 5, "ops/s", 0, 0);
        Report report = new Report(List.of(ours, peer, other), Pattern.compile("ours"), "impl");
        List<Report.Group> groups = report.groups();
        assertEquals(3, groups.size());
        assertEquals(
                List.of("a.Bench-run-thrpt", "b.Bench-run-thrpt", "Other-run-thrpt"),
                groups.stream().map(Report.Group::id).collect(java.util.stream.Collectors.toList()));
        assertEquals("a.Bench.run (thrpt, ops/s)", groups.get(0).label());
    }

    @Test
    void formatsWithSiSuffixes() {
        assertEquals("12.3M", Report.fmt(12_345_678));
        assertEquals("45.7k", Report.fmt(45_678));
        assertEquals("7.89", Report.fmt(7.891));
        assertEquals("NaN", Report.fmt(Double.NaN));
        // never an exponent: 1,000 to 9,999 take the k, tiny values stay plain
        assertEquals("9.47k", Report.fmt(9_470));
        assertEquals("1.12k", Report.fmt(1_123));
        assertEquals("1.00M", Report.fmt(999_700), "rounded before the suffix is chosen");
        assertEquals("1.00k", Report.fmt(999.7));
        assertEquals("12.0", Report.fmt(12));
        assertEquals("0.0000400", Report.fmt(0.00004));
        assertEquals("-2.50k", Report.fmt(-2_500));
        assertEquals("999G", Report.fmt(9.99e11));
        assertEquals("1.23e+12", Report.fmt(1.234e12), "past what a benchmark measures: exponent form");
        assertEquals("4.90e-324", Report.fmt(Double.MIN_VALUE));
        assertEquals("0", Report.fmt(-0.0));
    }
}
