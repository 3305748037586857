package io.tickwork.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws one or more columns of a CSV table against another as a line chart (PNG), for measurements
 * that are series rather than JMH results, such as memory against connections held.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.tickwork.report.LineChart \
 *     --csv samples.csv --x connections --y server_rss_mb,client_rss_mb,kernel_tcp_mb \
 *     --title "memory while connections are held" --x-title connections --y-title MB --out chart.png
 * </pre>
 *
 * <p>The CSV has a header line of column names; empty lines and lines starting with {@code #} are
 * skipped; a cell that is not a number ends the series for that row (the point is left out).
 */
public final class LineChart {
    private LineChart() {}

    public static void main(String[] args) throws IOException {
        String csv = null, x = null, y = null, out = null, title = "", xTitle = null, yTitle = "";
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                fail(args[i] + " needs a value\n" + usage());
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--csv" -> csv = value;
                case "--x" -> x = value;
                case "--y" -> y = value;
                case "--out" -> out = value;
                case "--title" -> title = value;
                case "--x-title" -> xTitle = value;
                case "--y-title" -> yTitle = value;
                default -> fail("unknown option " + args[i] + "\n" + usage());
            }
            i++;
        }
        if (csv == null || x == null || y == null || out == null) {
            fail("--csv, --x, --y and --out are required\n" + usage());
        }
        XYChart chart;
        try {
            chart = chart(
                    Files.readAllLines(Path.of(csv), StandardCharsets.UTF_8),
                    x,
                    Arrays.asList(y.split(",")),
                    title,
                    xTitle == null ? x : xTitle,
                    yTitle);
        } catch (IllegalArgumentException e) {
            fail(csv + ": " + e.getMessage());
            return;
        }
        BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }

    static String usage() {
        return "usage: LineChart --csv FILE --x COLUMN --y COLUMN[,COLUMN...] --out FILE.png"
                + " [--title T] [--x-title T] [--y-title T]";
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(2);
    }

    /**
     * The chart of the {@code ys} columns against {@code x}; throws if a column is missing or no
     * row has a point of any of them (an empty chart would pass for a flat one).
     */
    static XYChart chart(List<String> lines, String x, List<String> ys, String title, String xTitle, String yTitle) {
        List<String[]> rows = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank() && !line.startsWith("#")) {
                rows.add(line.trim().split("\\s*,\\s*"));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no header line");
        }
        List<String> header = Arrays.asList(rows.remove(0));
        int xi = column(header, x);
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(500)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        Styler st = chart.getStyler();
        st.setChartBackgroundColor(Color.WHITE);
        st.setLegendPosition(Styler.LegendPosition.InsideNW);
        for (String y : ys) {
            int yi = column(header, y);
            List<Double> xs = new ArrayList<>();
            List<Double> vs = new ArrayList<>();
            for (String[] row : rows) {
                Double xv = number(row, xi);
                Double yv = number(row, yi);
                if (xv != null && yv != null) {
                    xs.add(xv);
                    vs.add(yv);
                }
            }
            if (!xs.isEmpty()) {
                chart.addSeries(y, xs, vs).setMarker(SeriesMarkers.NONE);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            throw new IllegalArgumentException("no row has a number in '" + x + "' and in any of " + ys);
        }
        return chart;
    }

    private static int column(List<String> header, String name) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + name + "' in " + header);
        }
        return i;
    }

    private static Double number(String[] row, int i) {
        if (i >= row.length) {
            return null;
        }
        try {
            return Double.valueOf(row[i]);
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }
}
