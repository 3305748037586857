package io.tickwork.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Turns JMH JSON ({@code -rf json}) into what a reader decides from: one PNG per benchmark group
 * (grouped bars of the score with JMH's error as error bars, our variants and the peers side by
 * side, and allocation per operation below when the run used {@code -prof gc}), and one Markdown
 * file with a table per group and the ratio of our best variant to the best peer in each row.
 *
 * <p>How results are grouped: a group is one benchmark class, mode and (when the variants are a
 * parameter) method. The <em>variant</em> of a result is the value of the variant parameter
 * ({@code --variant-param}, default: the first of {@value #VARIANT_PARAMS} that the results have);
 * without one, the method name is the variant. Every other parameter makes the row (the bar group).
 * A variant is ours when it matches {@code --ours} (a regular expression); all others are peers.
 * {@code --map} (a {@link ResultMapping}) files another benchmark's results in a group as a peer,
 * in every row that agrees with the parameters they have.
 *
 * <p>Usage ({@code jmh/suite} runs it after JMH): {@code java -jar
 * bench-report/target/tickwork-bench-report.jar --in r.json --out docs/bench --name order --ours
 * keyed [--title "..."] [--note "JDK 17, 2 cores"]}. An unknown or repeated option and results of
 * two JVMs in one report are refused (exit 2); an {@code --ours} or {@code --headline} that
 * matches nothing is warned of on stderr. Several {@code --in} files join into
 * one report only when no benchmark with the same parameters is in two of them: a second run of a
 * cell is refused, not silently put in place of the first. An input that cannot be read, is not
 * JMH's JSON, or holds no result is an error naming the file (exit 2, or 1 for no result).
 *
 * <p>A cell shows the median of every measured iteration (what the ratio is of), then JMH's mean
 * and 99.9 % error (what the verdict is of). Allocation below 0.01 B/op is JMH's own residue,
 * shown as ~0 and not charted.
 */
public final class Report {
    static final String VARIANT_PARAMS = "impl,variant,subject,kind,timer,executor,scheduler,model,peer,queue,index";

    private final List<JmhResult> results;
    private final Pattern ours;
    private final String variantParam;
    /** Our variants a user gets by default: where a row has one, the ratio is of the best of these. */
    private final Pattern headline;

    Report(List<JmhResult> results, Pattern ours, String variantParam) {
        this(results, ours, variantParam, null);
    }

    Report(List<JmhResult> results, Pattern ours, String variantParam, Pattern headline) {
        this.results = results;
        this.ours = ours;
        this.variantParam = variantParam != null ? variantParam : detectVariantParam(results);
        this.headline = headline;
    }

    /** The options that take a value, besides the repeatable {@code --in}. */
    static final Set<String> OPTIONS = Set.of("out", "name", "ours", "headline", "variant-param", "title", "note");

    public static void main(String[] args) throws IOException {
        try {
            run(args);
        } catch (UsageError e) {
            System.err.println("report: " + e.getMessage());
            System.exit(e.status);
        }
    }

    /** The command: reads, checks and writes; a bad command line or input is a {@link UsageError}. */
    static void run(String[] args) throws IOException, UsageError {
        Map<String, String> opts = new LinkedHashMap<>();
        List<Path> inputs = new ArrayList<>();
        List<ResultMapping> mappings = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.println(usage());
                return;
            }
            if (!a.startsWith("--") || !(a.equals("--in") || a.equals("--map") || OPTIONS.contains(a.substring(2)))) {
                throw new UsageError(2, "unknown argument " + a + "\n" + usage());
            }
            if (i + 1 >= args.length) {
                throw new UsageError(2, a + " needs a value\n" + usage());
            }
            String value = args[++i];
            if (a.equals("--in")) {
                inputs.add(Path.of(value));
            } else if (a.equals("--map")) {
                mappings.add(ResultMapping.parse(value));
            } else if (opts.put(a.substring(2), value) != null) {
                throw new UsageError(2, a + " given twice");
            }
        }
        if (inputs.isEmpty()) {
            throw new UsageError(2, "--in is required\n" + usage());
        }
        List<JmhResult> all = ResultMapping.applyAll(mappings, read(inputs));
        Path out = Path.of(opts.getOrDefault("out", "docs/bench"));
        String name = opts.getOrDefault("name", "report");
        Report report = new Report(
                all,
                pattern("--ours", opts.getOrDefault("ours", "(?i)tickwork.*")),
                opts.get("variant-param"),
                opts.containsKey("headline") ? pattern("--headline", opts.get("headline")) : null);
        List<Path> written;
        try {
            for (String warning : report.variantWarnings()) {
                System.err.println("report: warning: " + warning);
            }
            written = report.write(out, name, opts.getOrDefault("title", name), opts.getOrDefault("note", ""));
        } catch (IllegalArgumentException e) { // results that make no report: told in one line, not a trace
            throw new UsageError(2, e.getMessage());
        }
        for (Path p : written) {
            System.out.println("wrote " + p);
        }
    }

    private static Pattern pattern(String option, String regex) throws UsageError {
        try {
            return Pattern.compile(regex);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new UsageError(2, option + " " + regex + " is not a regular expression: " + e.getDescription());
        }
    }

    /**
     * What the user is told on stderr, the report being written all the same: an {@code --ours}
     * that matches no variant (a typo leaves every ratio cell empty; a run of peers alone is
     * legitimate), and a {@code --headline} that matches none of ours (a run narrowed with
     * {@code -p} may leave the headline out, and the best of ours is compared then).
     */
    List<String> variantWarnings() {
        Set<String> variants = new LinkedHashSet<>();
        for (Group g : groups()) {
            variants.addAll(g.variants);
        }
        List<String> warnings = new ArrayList<>();
        if (variants.stream().noneMatch(this::isOurs)) {
            warnings.add(
                    "--ours " + ours.pattern() + " matches none of the variants " + variants + ": no ratio is given");
        } else if (headline != null
                && variants.stream()
                        .noneMatch(v -> isOurs(v) && headline.matcher(v).matches())) {
            warnings.add("--headline " + headline.pattern() + " matches none of ours in " + variants
                    + ": each row compares the best of ours");
        }
        return warnings;
    }

    /** A bad input, told to the user in one line with the exit status it gives. */
    static final class UsageError extends Exception {
        final int status;

        UsageError(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /**
     * The results of every input, in order; refuses an input that cannot be read or parsed, one
     * without a result (its benchmarks failed, or it is not a JMH run), and a result whose
     * benchmark, mode and parameters an earlier input has already given.
     */
    static List<JmhResult> read(List<Path> inputs) throws UsageError {
        List<JmhResult> all = new ArrayList<>();
        Map<String, Path> seen = new LinkedHashMap<>();
        for (Path in : inputs) {
            String text;
            try {
                text = Files.readString(in, StandardCharsets.UTF_8);
            } catch (java.nio.file.NoSuchFileException e) {
                throw new UsageError(2, in + ": no such file");
            } catch (IOException e) {
                throw new UsageError(2, in + ": cannot be read: " + e);
            }
            List<JmhResult> rs;
            try {
                rs = JmhResult.parse(text);
            } catch (IOException | IllegalArgumentException e) {
                throw new UsageError(2, in + ": not JMH's JSON (-rf json): " + e.getMessage());
            }
            if (rs.isEmpty()) {
                throw new UsageError(1, in + ": no results (did every benchmark fail?)");
            }
            for (JmhResult r : rs) {
                JmhResult base = all.isEmpty() ? rs.get(0) : all.get(0);
                if (!base.jvm.equals(r.jvm)) {
                    throw new UsageError(
                            2,
                            r.benchmark + " " + r.params + " ran on " + describe(r.jvm) + " (" + in + "), "
                                    + base.benchmark + " on " + describe(base.jvm)
                                    + ": a report compares one JVM; give each its own report");
                }
                Path first = seen.putIfAbsent(r.key(), in);
                if (first != null) {
                    throw new UsageError(
                            2,
                            r.benchmark + " " + r.params + " (" + r.mode + ") is in " + first
                                    + (first.equals(in) ? " twice" : " and in " + in)
                                    + ": a report is of one run per cell; give the runs to separate reports");
                }
            }
            all.addAll(rs);
        }
        return all;
    }

    private static String describe(String jvm) {
        return jvm.isEmpty() ? "an unnamed JVM" : jvm;
    }

    static String usage() {
        return "usage: Report --in results.json [--in more.json] [--out docs/bench] [--name suite]\n"
                + "              [--ours REGEX] [--headline REGEX] [--variant-param NAME] [--title TEXT] [--note TEXT]\n"
                + "  --ours           variants matching this regex are ours, the rest are peers (default (?i)tickwork.*)\n"
                + "  --headline       ours a user gets by default: a row with one compares the best of these, not\n"
                + "                   of all ours (identical variants would otherwise add a best-of-N draw)\n"
                + "  --variant-param  the @Param naming the variant (default: first of " + VARIANT_PARAMS + ";\n"
                + "                   without one, each @Benchmark method is a variant)\n"
                + "  --map 'REGEX -> Class.method k=v ...'  (repeatable) files the results whose benchmark name\n"
                + "                   matches REGEX under Class.method with these parameters added; such a result\n"
                + "                   joins every row agreeing with the parameters it has";
    }

    /** Writes {@code name.md} and one {@code name-<group>.png} per group; returns the paths written. */
    List<Path> write(Path outDir, String name, String title, String note) throws IOException {
        Files.createDirectories(outDir);
        List<Path> written = new ArrayList<>();
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        if (!note.isEmpty()) {
            md.append(note).append("\n\n");
        }
        md.append("Ratio: best of ours"
                + (headline != null ? " (of `" + headline.pattern() + "` where the row has it)" : "")
                + " against the best peer in the row, on medians of every measured iteration, "
                + "> 1 means ours is faster; level when the JMH error intervals overlap. Quote a row as won or lost "
                + "only from a run of at least 3 forks (a verdict from fewer says how many). A cell is the median "
                + "(JMH's mean ± its 99.9 % error). The charts' bars are JMH's means with that error; a variant "
                + "run without -prof gc has no allocation bar.\n");
        for (Group g : groups()) {
            String file = name + "-" + g.id() + ".png";
            Path png = outDir.resolve(file);
            ImageIO.write(render(g), "png", png.toFile());
            written.add(png);
            md.append("\n## ").append(g.label()).append("\n\n");
            md.append("![").append(g.label()).append("](").append(file).append(")\n\n");
            md.append(table(g));
        }
        Path mdFile = outDir.resolve(name + ".md");
        Files.writeString(mdFile, md.toString(), StandardCharsets.UTF_8);
        written.add(0, mdFile);
        return written;
    }

    // ---------------------------------------------------------------- grouping

    /** Bars of one chart: rows (parameter combinations) by variants, in first-seen order. */
    final class Group {
        final String className;
        final String mode;
        final String method; // null when the method is the variant
        final Map<String, Map<String, JmhResult>> cells = new LinkedHashMap<>(); // row -> variant -> result
        final Set<String> variants = new LinkedHashSet<>();
        /** Each row's parameters, and the rows made by mapped results (joined into full rows at the end). */
        private final Map<String, Map<String, String>> rowParams = new LinkedHashMap<>();

        private final Set<String> mappedRows = new LinkedHashSet<>();

        /** The benchmark class's full name: classes of one short name in two packages are two groups. */
        String qualifiedClass;

        Group(String className, String mode, String method) {
            this.className = className;
            this.mode = mode;
            this.method = method;
        }

        /** The class as the chart and heading name it: its short name, unless another group's is the same. */
        boolean qualified;

        private String classShown() {
            return qualified ? qualifiedClass : className;
        }

        String id() {
            return (classShown() + (method != null ? "-" + method : "") + "-" + mode)
                    .replaceAll("[^A-Za-z0-9_.-]", "_");
        }

        String label() {
            return classShown() + (method != null ? "." + method : "") + " (" + mode + ", " + unit() + ")";
        }

        String unit() {
            for (Map<String, JmhResult> row : cells.values()) {
                for (JmhResult r : row.values()) {
                    return r.unit;
                }
            }
            return "";
        }

        boolean higherIsBetter() {
            return "thrpt".equals(mode);
        }

        /** Whether any variant allocated: with only residue the chart would draw noise as bars. */
        boolean hasAlloc() {
            return cells.values().stream()
                    .flatMap(m -> m.values().stream())
                    .anyMatch(r -> !Double.isNaN(r.allocBytesPerOp) && !isResidue(r.allocBytesPerOp));
        }
    }

    List<Group> groups() {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (JmhResult r : results) {
            boolean byParam = variantParam != null && r.params.containsKey(variantParam);
            String method = byParam ? r.method() : null;
            String qualified = r.benchmark.substring(0, r.benchmark.lastIndexOf('.'));
            String key = qualified + "|" + r.mode + "|" + method;
            Group g = groups.computeIfAbsent(key, k -> new Group(r.className(), r.mode, method));
            g.qualifiedClass = qualified;
            String variant = byParam ? r.params.get(variantParam) : r.method();
            StringBuilder row = new StringBuilder();
            Map<String, String> rowParams = new LinkedHashMap<>();
            r.params.forEach((k, v) -> {
                if (!(byParam && k.equals(variantParam))) {
                    row.append(row.length() == 0 ? "" : " ")
                            .append(k)
                            .append('=')
                            .append(v);
                    rowParams.put(k, v);
                }
            });
            String rowKey = row.length() == 0 ? "-" : row.toString();
            g.rowParams.putIfAbsent(rowKey, rowParams);
            if (r.mapped) {
                g.mappedRows.add(rowKey);
            }
            String unit = g.unit();
            if (!g.cells.isEmpty() && !unit.equals(r.unit)) {
                throw new IllegalArgumentException(r.benchmark + " (" + r.mode + ") in " + unit + " and in " + r.unit
                        + ": a report compares one unit; run every input with the same -tu");
            }
            g.variants.add(variant);
            JmhResult before =
                    g.cells.computeIfAbsent(rowKey, k -> new LinkedHashMap<>()).putIfAbsent(variant, r);
            if (before != null) {
                throw new IllegalArgumentException(
                        "two results for " + r.benchmark + " " + r.params + " (" + r.mode + "): one run per report");
            }
        }
        for (Group g : groups.values()) {
            joinMappedRows(g);
        }
        Map<String, Long> shortNames = new LinkedHashMap<>();
        Set<String> classesOfName = new LinkedHashSet<>();
        for (Group g : groups.values()) {
            if (classesOfName.add(g.qualifiedClass)) {
                shortNames.merge(g.className, 1L, Long::sum);
            }
        }
        for (Group g : groups.values()) {
            g.qualified = shortNames.get(g.className) > 1; // one short name, two classes: two files, two headings
        }
        return new ArrayList<>(groups.values());
    }

    /**
     * Moves each row made only of mapped results into every other row whose parameters include all
     * of its own (a virtual-thread result without a {@code placement} joins each placement's row),
     * so that it is a peer there. Refuses a group of mapped results only, a mapped row that no row
     * of real results includes, and a join into a row that has that variant already.
     */
    private static void joinMappedRows(Group g) {
        boolean real =
                g.cells.values().stream().flatMap(row -> row.values().stream()).anyMatch(r -> !r.mapped);
        if (!real) {
            JmhResult r = g.cells.values().iterator().next().values().iterator().next();
            throw new IllegalArgumentException(
                    "--map: " + r.benchmark + " (" + r.mode + ") names no benchmark of the results, with their"
                            + " variant parameter: it would be the peer of nothing");
        }
        for (String partial : g.mappedRows) {
            Map<String, JmhResult> partialCells = g.cells.get(partial);
            if (partialCells.values().stream().anyMatch(r -> !r.mapped)) {
                continue; // a real result has exactly these parameters: the row is a full one
            }
            Map<String, String> params = g.rowParams.get(partial);
            List<String> targets = new ArrayList<>();
            for (String rowKey : g.cells.keySet()) {
                if (!rowKey.equals(partial)
                        && g.cells.get(rowKey).values().stream().anyMatch(r -> !r.mapped)
                        && g.rowParams.get(rowKey).entrySet().containsAll(params.entrySet())) {
                    targets.add(rowKey);
                }
            }
            if (targets.isEmpty()) {
                JmhResult r = partialCells.values().iterator().next();
                throw new IllegalArgumentException("--map: " + r.benchmark + " " + r.params
                        + " agrees with no row of real results: it would be the peer of nothing");
            }
            for (String target : targets) {
                for (Map.Entry<String, JmhResult> cell : partialCells.entrySet()) {
                    if (g.cells.get(target).putIfAbsent(cell.getKey(), cell.getValue()) != null) {
                        throw new IllegalArgumentException("--map: " + cell.getValue().benchmark + " "
                                + cell.getValue().params + " joins row " + target + ", which has a result for "
                                + cell.getKey());
                    }
                }
            }
            g.cells.remove(partial);
        }
    }

    static String detectVariantParam(List<JmhResult> results) {
        for (String candidate : VARIANT_PARAMS.split(",")) {
            for (JmhResult r : results) {
                if (r.params.containsKey(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    boolean isOurs(String variant) {
        return ours.matcher(variant).matches();
    }

    // ---------------------------------------------------------------- markdown

    String table(Group g) {
        List<String> variants = new ArrayList<>(g.variants);
        StringBuilder sb = new StringBuilder();
        sb.append("| row |");
        for (String v : variants) {
            sb.append(' ').append(isOurs(v) ? "**" + v + "**" : v).append(" |");
        }
        sb.append(headline != null ? " ours (headline) / best peer |\n|---|" : " best ours / best peer |\n|---|");
        sb.append("---:|".repeat(variants.size())).append("---|\n");
        for (Map.Entry<String, Map<String, JmhResult>> row : g.cells.entrySet()) {
            sb.append("| ").append(row.getKey()).append(" |");
            for (String v : variants) {
                JmhResult r = row.getValue().get(v);
                sb.append(' ').append(r == null ? "" : cell(r)).append(" |");
            }
            sb.append(' ').append(ratioText(g, row.getValue())).append(" |\n");
        }
        return sb.toString();
    }

    /** The median (the ratio's statistic), then JMH's mean ± error (the verdict's), then allocation. */
    static String cell(JmhResult r) {
        String mean = fmt(r.score) + (Double.isNaN(r.error) ? "" : " ± " + fmt(r.error));
        String s = Double.isNaN(r.median) ? mean : fmt(r.median) + " (" + mean + ")";
        if (!Double.isNaN(r.allocBytesPerOp)) {
            s += isResidue(r.allocBytesPerOp) ? " (~0 B/op)" : " (" + fmt(r.allocBytesPerOp) + " B/op)";
        }
        return s;
    }

    /** Below 0.01 B/op is JMH's own residue spread over millions of operations, not allocation. */
    static boolean isResidue(double bytesPerOp) {
        return bytesPerOp < 0.01;
    }

    /**
     * "1.52× won (ours vs peer)", or "" when the row lacks either side. Ours is the best of the
     * headline variants where the row has one, else the best of all ours. The ratio is of medians
     * over every measured iteration when JMH recorded them (of means otherwise); the verdict is
     * "level" when the two results' error intervals (score ± JMH's 99.9 % error) overlap, "won" or
     * "lost" when they do not, and "no error" when either side has none (a single iteration).
     */
    String ratioText(Group g, Map<String, JmhResult> row) {
        JmhResult bestOurs = null;
        JmhResult bestHeadline = null;
        JmhResult bestPeer = null;
        for (Map.Entry<String, JmhResult> e : row.entrySet()) {
            JmhResult r = e.getValue();
            if (isOurs(e.getKey())) {
                bestOurs = better(g, bestOurs, r);
                if (headline != null && headline.matcher(e.getKey()).matches()) {
                    bestHeadline = better(g, bestHeadline, r);
                }
            } else {
                bestPeer = better(g, bestPeer, r);
            }
        }
        if (bestHeadline != null) {
            bestOurs = bestHeadline;
        }
        if (bestOurs == null || bestPeer == null) {
            return "";
        }
        double ratio = ratio(g, bestOurs, bestPeer);
        int forks = Math.min(bestOurs.forks, bestPeer.forks);
        return String.format(
                Locale.ROOT,
                "%.2f× %s (%s vs %s)%s",
                ratio,
                verdict(ratio, bestOurs, bestPeer),
                variantOf(row, bestOurs),
                variantOf(row, bestPeer),
                forks > 0 && forks < 3 ? ", " + forks + (forks == 1 ? " fork" : " forks") : "");
    }

    /** Speed-up of {@code a} over {@code b} on medians: > 1 means {@code a} is faster, whatever the mode. */
    static double ratio(Group g, JmhResult a, JmhResult b) {
        return g.higherIsBetter() ? a.central() / b.central() : b.central() / a.central();
    }

    /**
     * "won", "lost", "level" or "no error" (either side has none). Level when the error intervals
     * overlap, and also when they are apart but the means order the two the other way from the
     * medians' {@code ratio} (bimodal forks): the evidence then disagrees with itself.
     */
    static String verdict(double ratio, JmhResult ours, JmhResult peer) {
        if (Double.isNaN(ours.error) || Double.isNaN(peer.error)) {
            return "no error";
        }
        boolean overlap = ours.score - ours.error <= peer.score + peer.error
                && peer.score - peer.error <= ours.score + ours.error;
        boolean meansSayOurs = "thrpt".equals(ours.mode) ? ours.score > peer.score : ours.score < peer.score;
        return overlap || meansSayOurs != (ratio > 1) ? "level" : ratio > 1 ? "won" : "lost";
    }

    private static JmhResult better(Group g, JmhResult current, JmhResult candidate) {
        if (current == null) {
            return candidate;
        }
        // by the statistic the ratio is of, so the variant named best is the one the ratio measures
        boolean candidateWins =
                g.higherIsBetter() ? candidate.central() > current.central() : candidate.central() < current.central();
        return candidateWins ? candidate : current;
    }

    private static String variantOf(Map<String, JmhResult> row, JmhResult r) {
        for (Map.Entry<String, JmhResult> e : row.entrySet()) {
            if (e.getValue() == r) {
                return e.getKey();
            }
        }
        return "?";
    }

    /**
     * Three significant digits with an SI suffix from 1,000 on: 12.3M, 9.47k, 456, 7.89,
     * 0.0000400; in exponent form only outside [1e-6, 1e12), where no benchmark figure falls.
     * Rounded before the suffix is chosen, so 999,700 is 1.00M.
     */
    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal b = new BigDecimal(v).round(THREE_DIGITS);
        double a = b.abs().doubleValue();
        if (a < 1e-6 || a >= 1e12) {
            return String.format(Locale.ROOT, "%.2e", v);
        }
        String suffix = "";
        if (a >= 1e9) {
            b = b.movePointLeft(9);
            suffix = "G";
        } else if (a >= 1e6) {
            b = b.movePointLeft(6);
            suffix = "M";
        } else if (a >= 1e3) {
            b = b.movePointLeft(3);
            suffix = "k";
        }
        if (b.precision() < 3) { // 12 prints as 12.0, as three digits
            b = b.setScale(b.scale() + 3 - b.precision());
        }
        return b.toPlainString() + suffix;
    }

    private static final MathContext THREE_DIGITS = new MathContext(3, RoundingMode.HALF_UP);

    // ---------------------------------------------------------------- charts

    BufferedImage render(Group g) {
        List<String> rows = new ArrayList<>(g.cells.keySet());
        CategoryChart scores = chart(g.label(), g.unit(), rows, g, false);
        BufferedImage top = BitmapEncoder.getBufferedImage(scores);
        if (!g.hasAlloc()) {
            return top;
        }
        CategoryChart alloc = chart("allocation per operation (-prof gc)", "B/op", rows, g, true);
        BufferedImage bottom = BitmapEncoder.getBufferedImage(alloc);
        BufferedImage both =
                new BufferedImage(top.getWidth(), top.getHeight() + bottom.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = both.createGraphics();
        g2.setColor(Color.WHITE);
        g2.fillRect(0, 0, both.getWidth(), both.getHeight());
        g2.drawImage(top, 0, 0, null);
        g2.drawImage(bottom, 0, top.getHeight(), null);
        g2.dispose();
        return both;
    }

    /**
     * One bar series: for each row, the variant's value ({@code alloc}: bytes per operation, else
     * JMH's mean score) and error, 0 where the row lacks the variant or where its allocation is
     * residue; null when {@code alloc} and the variant ran without {@code -prof gc} in every row
     * (no bar, rather than a bar of 0 that reads as allocation-free).
     */
    static double[][] series(Group g, String variant, List<String> rows, boolean alloc) {
        double[] ys = new double[rows.size()];
        double[] errs = new double[rows.size()];
        boolean any = false;
        for (int i = 0; i < rows.size(); i++) {
            JmhResult r = g.cells.get(rows.get(i)).get(variant);
            if (r == null) {
                continue;
            }
            double y = alloc ? r.allocBytesPerOp : r.score;
            double e = alloc ? r.allocError : r.error;
            if (Double.isNaN(y)) {
                continue;
            }
            any = true;
            if (!(alloc && isResidue(y))) {
                ys[i] = y;
                errs[i] = Double.isNaN(e) ? 0 : e;
            }
        }
        return any ? new double[][] {ys, errs} : null;
    }

    private CategoryChart chart(String title, String yTitle, List<String> rows, Group g, boolean alloc) {
        // Scale to k/M/G so the axis reads "40 M ops/s" rather than "4E7".
        double max = 0;
        for (Map<String, JmhResult> row : g.cells.values()) {
            for (JmhResult r : row.values()) {
                double v = alloc ? r.allocBytesPerOp : r.score;
                if (!Double.isNaN(v)) {
                    max = Math.max(max, Math.abs(v));
                }
            }
        }
        double scale = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : max >= 1e4 ? 1e3 : 1;
        String prefix = scale == 1e9 ? "G " : scale == 1e6 ? "M " : scale == 1e3 ? "k " : "";
        yTitle = prefix + yTitle;
        int width = Math.max(900, Math.min(2400, 140 + rows.size() * g.variants.size() * 28));
        CategoryChart chart = new CategoryChartBuilder()
                .width(width)
                .height(alloc ? 320 : 480)
                .title(title)
                .yAxisTitle(yTitle)
                .build();
        Styler st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLabelRotation(rows.size() > 4 ? 20 : 0);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setErrorBarsColor(Color.DARK_GRAY);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        for (String variant : g.variants) {
            double[][] values = series(g, variant, rows, alloc);
            if (values == null) {
                continue; // ran without -prof gc: no allocation bar
            }
            List<Double> ys = new ArrayList<>();
            List<Double> errs = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                ys.add(values[0][i] / scale);
                errs.add(values[1][i] / scale);
            }
            String label = isOurs(variant) ? variant + " (ours)" : variant;
            chart.addSeries(label, rows, ys, errs);
        }
        return chart;
    }
}
