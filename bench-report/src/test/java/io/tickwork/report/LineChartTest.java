package io.tickwork.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

class LineChartTest {

    private static final List<String> CSV = List.of(
            "# memory against connections",
            "connections,server_mb,client_mb",
            "0,100,50",
            "",
            "1000,110,n/a",
            "2000,120,70");

    @Test
    void eachYColumnIsOneSeriesAndCellsThatAreNotNumbersAreLeftOut() {
        XYChart chart = LineChart.chart(CSV, "connections", List.of("server_mb", "client_mb"), "t", "x", "y");
        assertEquals(2, chart.getSeriesMap().size());
        assertEquals(3, chart.getSeriesMap().get("server_mb").getXData().length);
        assertEquals(2, chart.getSeriesMap().get("client_mb").getXData().length);
        assertEquals(120.0, chart.getSeriesMap().get("server_mb").getYData()[2]);
    }

    /** A CSV with a header and no point of any column (no row, or cells like {@code 1.5MB}) is refused, not drawn empty. */
    @Test
    void aChartWithNoPointIsRefused() {
        for (List<String> lines : List.of(List.of("n,rss"), List.of("n,rss", "1,1.5MB", "2,2.0MB"))) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> LineChart.chart(lines, "n", List.of("rss"), "t", "n", "MB"));
            assertTrue(e.getMessage().startsWith("no row has a number in 'n' and in any of [rss]"), e.getMessage());
        }
    }

    @Test
    void aMissingColumnIsNamed() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LineChart.chart(CSV, "connections", List.of("heap_mb"), "t", "x", "y"));
        assertTrue(e.getMessage().contains("heap_mb"), e.getMessage());
    }

    @Test
    void writesAPng(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("m.csv");
        Files.write(csv, CSV);
        Path png = dir.resolve("m.png");
        LineChart.main(new String[] {
            "--csv", csv.toString(), "--x", "connections", "--y", "server_mb,client_mb", "--out", png.toString()
        });
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 8 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', "not a PNG");
    }
}
