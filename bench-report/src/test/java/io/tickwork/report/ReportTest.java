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
        List<Path> written = report.write(dir, "demo", "Demo suite", "2026-11-21, test", false);
        assertEquals(3, written.size(), written.toString());
        String md = Files.readString(written.get(0));
        assertTrue(md.startsWith("# Demo suite"), md);
        assertTrue(md.contains("![OrderedBench.run (thrpt, ops/s)](demo-OrderedBench-run-thrpt.png)"), md);
        BufferedImage withAlloc = ImageIO.read(written.get(1).toFile());
        BufferedImage scoresOnly = ImageIO.read(written.get(2).toFile());
        assertEquals(480 + 320, withAlloc.getHeight(), "score chart with the allocation chart below it");
        assertEquals(480, scoresOnly.getHeight(), "no -prof gc figures, no allocation chart");
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
