package io.tickwork.server.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.client.common.Args;
import io.tickwork.server.client.common.OsError;
import io.tickwork.server.client.common.Targets;
import io.tickwork.server.client.common.UsageException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgsTest {
    private static final List<Args.Opt> OPTS = List.of(
            Args.Opt.value("connections", "C", "c").alias('c'),
            Args.Opt.value("duration", "T", "d"),
            Args.Opt.value("rate", "R", "r"),
            Args.Opt.flag("json", "j"));

    @Test
    void parsesValuesFlagsAliasesAndSuffixes() {
        Args a = Args.parse(
                "x", OPTS, new String[] {"-c", "2k", "--duration=1.5s", "--json", "http://127.0.0.1:1/", "--rate", "1m"
                });
        assertEquals(2000, a.intValue("connections", 1, 1, 10_000));
        assertEquals(
                Duration.ofMillis(1500), a.duration("duration", Duration.ZERO, Duration.ZERO, Duration.ofHours(1)));
        assertEquals(1e6, a.doubleValue("rate", 0, 0, 1e9));
        assertTrue(a.flag("json"));
        assertEquals(List.of("http://127.0.0.1:1/"), a.positional());
        assertEquals(Duration.ofMillis(250), Args.parseDuration("250ms"));
        assertEquals(Duration.ofMinutes(2), Args.parseDuration("2m"));
        assertEquals(Duration.ofSeconds(7), Args.parseDuration("7"));
    }

    @Test
    void errorsNameTheOptionAndTheValue() {
        UsageException e = assertThrows(
                UsageException.class,
                () -> Args.parse("x", OPTS, new String[] {"-c", "0"}).intValue("connections", 1, 1, 10));
        assertEquals("--connections must be in [1, 10]: 0", e.getMessage());
        e = assertThrows(
                UsageException.class,
                () -> Args.parse("x", OPTS, new String[] {"--duration", "soon"})
                        .duration("duration", Duration.ZERO, Duration.ZERO, Duration.ofHours(1)));
        assertTrue(e.getMessage().contains("soon"), e.getMessage());
        e = assertThrows(UsageException.class, () -> Args.parse("x", OPTS, new String[] {"--nope"}));
        assertTrue(e.getMessage().contains("--nope"), e.getMessage());
        e = assertThrows(UsageException.class, () -> Args.parse("x", OPTS, new String[] {"-z"}));
        assertTrue(e.getMessage().contains("-z"), e.getMessage());
        e = assertThrows(UsageException.class, () -> Args.parse("x", OPTS, new String[] {"--rate"}));
        assertTrue(e.getMessage().contains("--rate"), e.getMessage());
    }

    @Test
    void onlyLoopbackTargets() {
        assertEquals(8080, Targets.hostPort("--target", "127.0.0.9:8080").getPort());
        assertEquals(
                "127.0.0.1", Targets.hostPort("--target", ":81").getAddress().getHostAddress());
        UsageException e = assertThrows(UsageException.class, () -> Targets.url("URL", "http://10.1.2.3:80/"));
        assertTrue(e.getMessage().contains("10.1.2.3"), e.getMessage());
        assertThrows(UsageException.class, () -> Targets.hostPort("--target", "192.168.0.1:80"));
        assertThrows(UsageException.class, () -> Targets.hostPort("--target", "127.0.0.1:70000"));
        Targets.Url u = Targets.url("URL", "http://127.0.0.1:8080/d/x?y=1");
        assertEquals("/d/x?y=1", u.target());
        assertEquals("127.0.0.1:8080", u.hostHeader());
    }

    @Test
    void osErrorsAreRecognisedWithAdvice() {
        assertEquals(OsError.EMFILE, OsError.classify(new java.io.IOException("Too many open files")));
        assertEquals(OsError.ENFILE, OsError.classify(new java.io.IOException("Too many open files in system")));
        assertEquals(
                OsError.EADDRNOTAVAIL, OsError.classify(new java.net.BindException("Cannot assign requested address")));
        assertEquals(OsError.ECONNREFUSED, OsError.classify(new java.net.ConnectException("Connection refused")));
        assertTrue(OsError.EMFILE.advice().contains("ulimit -n"));
        assertTrue(OsError.EADDRNOTAVAIL.advice().contains("ip_local_port_range"));
        assertTrue(OsError.EMFILE.hardLimit() && OsError.ECONNREFUSED.hardLimit());
    }
}
