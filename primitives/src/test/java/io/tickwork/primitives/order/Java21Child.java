package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a test's {@code main} class in a child JVM of the first JDK 21 or later found
 * ({@code TICKWORK_JAVA21}, then {@code JAVA21_HOME}, then the JDKs under {@code /usr/lib/jvm} and
 * {@code /opt/java}), with the test class path, for checks that need virtual threads while the
 * build runs on JDK 17. The child passes by exiting 0 within 120 s; its output is printed. Without
 * such a JDK the calling test is skipped, except where the {@code CI} environment variable is
 * set: there it fails.
 */
public final class Java21Child {
    private static final Pattern VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)");

    private Java21Child() {}

    /** Runs {@code main} on a JDK 21+ as described above; {@code what} names the checks. */
    public static void run(Class<?> main, String what) throws Exception {
        Path java = findJava21();
        if (java == null) {
            String how = "no JDK 21+ found for " + what + ": set TICKWORK_JAVA21 to its home";
            if (System.getenv("CI") != null) {
                fail(how + " (CI is set, so this is a failure rather than a skip)");
            }
            Assumptions.abort(how);
        }
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path log = Files.createTempFile("java21-child", ".log");
        try {
            Process child = new ProcessBuilder(java.toString(), "-cp", classPath, main.getName())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            boolean exited = child.waitFor(120, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            System.out.print(output);
            assertTrue(exited, () -> "the child JVM did not exit within 120 s:\n" + output);
            assertEquals(0, child.exitValue(), () -> java + " reported:\n" + output);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static Path findJava21() throws IOException {
        List<Path> homes = new ArrayList<>();
        for (String env : new String[] {"TICKWORK_JAVA21", "JAVA21_HOME"}) {
            String home = System.getenv(env);
            if (home != null) {
                homes.add(Path.of(home));
            }
        }
        for (String dir : new String[] {"/usr/lib/jvm", "/opt/java"}) {
            Path root = Path.of(dir);
            if (Files.isDirectory(root)) {
                try (DirectoryStream<Path> jdks = Files.newDirectoryStream(root)) {
                    for (Path jdk : jdks) {
                        homes.add(jdk);
                    }
                }
            }
        }
        for (Path home : homes) {
            Path java = home.resolve("bin/java");
            if (Files.isExecutable(java) && featureVersion(home) >= 21) {
                return java;
            }
        }
        return null;
    }

    private static int featureVersion(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return -1;
        }
        Matcher m = VERSION.matcher(Files.readString(release));
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }
}
