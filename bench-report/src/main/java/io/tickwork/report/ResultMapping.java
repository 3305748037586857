package io.tickwork.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Files the results of one benchmark under another's group, as peers of its rows: the
 * virtual-thread benchmarks, which have no scheduler parameter, beside the schedulers of the
 * coroutine benchmarks doing the same work. A mapping reads {@code REGEX -> Class.method k=v ...}:
 * a result whose benchmark name contains a match of {@code REGEX} gets that match replaced by
 * {@code Class.method} and the parameters added (the variant one names it, e.g.
 * {@code scheduler=virtual-threads}). A mapped result that lacks a parameter of its group's rows
 * joins every row that agrees with it on the parameters it has (see {@link Report#groups()}).
 *
 * <p>Refused, with the mapping named: a spec without {@code " -> "}, an empty or bad regular
 * expression, a parameter without {@code =} or given twice, one the result already has, a mapping
 * that matches no result; and (by {@link Report#groups()}) a mapped result that joins no row with
 * a real result, or one whose variant such a row has already: a typo would otherwise leave a peer
 * out of every ratio. Immutable.
 */
final class ResultMapping {
    final String spec;
    private final Pattern from;
    private final String to;
    private final Map<String, String> params = new LinkedHashMap<>();

    private ResultMapping(String spec, Pattern from, String to) {
        this.spec = spec;
        this.from = from;
        this.to = to;
    }

    static ResultMapping parse(String spec) throws Report.UsageError {
        int arrow = spec.indexOf(" -> ");
        if (arrow < 0) {
            throw new Report.UsageError(2, "--map " + spec + ": expected REGEX -> Class.method [k=v ...]");
        }
        String[] target = spec.substring(arrow + 4).trim().split("\\s+");
        if (target[0].isEmpty() || target[0].indexOf('.') < 0 || target[0].contains("=")) {
            throw new Report.UsageError(2, "--map " + spec + ": the target must start with Class.method");
        }
        String regex = spec.substring(0, arrow).trim();
        if (regex.isEmpty()) {
            throw new Report.UsageError(2, "--map " + spec + ": the regex is empty (it would match every result)");
        }
        Pattern from;
        try {
            from = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new Report.UsageError(2, "--map " + spec + ": not a regular expression: " + e.getDescription());
        }
        ResultMapping m = new ResultMapping(spec, from, target[0]);
        for (int i = 1; i < target.length; i++) {
            int eq = target[i].indexOf('=');
            if (eq <= 0) {
                throw new Report.UsageError(2, "--map " + spec + ": " + target[i] + " is not k=v");
            }
            if (m.params.put(target[i].substring(0, eq), target[i].substring(eq + 1)) != null) {
                throw new Report.UsageError(2, "--map " + spec + ": " + target[i].substring(0, eq) + " given twice");
            }
        }
        return m;
    }

    /** {@code r} filed under the target, or null when its benchmark does not match. */
    JmhResult apply(JmhResult r) throws Report.UsageError {
        Matcher matcher = from.matcher(r.benchmark);
        if (!matcher.find()) {
            return null;
        }
        String benchmark = r.benchmark.substring(0, matcher.start()) + to + r.benchmark.substring(matcher.end());
        Map<String, String> all = new LinkedHashMap<>(r.params);
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (all.putIfAbsent(p.getKey(), p.getValue()) != null) {
                throw new Report.UsageError(
                        2, "--map " + spec + ": " + r.benchmark + " already has the parameter " + p.getKey());
            }
        }
        return r.mappedTo(benchmark, all);
    }

    /** Every result, each mapped by the first mapping that matches it; refuses a mapping that matches none. */
    static List<JmhResult> applyAll(List<ResultMapping> mappings, List<JmhResult> results) throws Report.UsageError {
        List<JmhResult> out = new ArrayList<>(results.size());
        boolean[] used = new boolean[mappings.size()];
        for (JmhResult r : results) {
            JmhResult mapped = null;
            for (int i = 0; i < mappings.size() && mapped == null; i++) {
                mapped = mappings.get(i).apply(r);
                used[i] |= mapped != null;
            }
            out.add(mapped != null ? mapped : r);
        }
        for (int i = 0; i < used.length; i++) {
            if (!used[i]) {
                throw new Report.UsageError(
                        2,
                        "--map " + mappings.get(i).spec
                                + " matches no result (an earlier --map takes what it matches first)");
            }
        }
        return out;
    }
}
