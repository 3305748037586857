package io.tickwork.client;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs a {@link LoadTool} command line in-process, capturing stdout, stderr and the exit status,
 * and reads {@code --json} output with Jackson (one JSON document, nothing after it).
 */
public final class Cli {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Cli() {}

    /** What one command line printed and returned. */
    public record Run(int status, String out, String err) {}

    public static Run run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int st;
        try (PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
                PrintStream pe = new PrintStream(e, true, StandardCharsets.UTF_8)) {
            st = LoadTool.run(args, po, pe);
        }
        return new Run(st, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /** Expected failures are explained, never shown as a stack trace. */
    public static void assertNoStackTrace(Run r) {
        for (String s : List.of(r.out(), r.err())) {
            assertFalse(s.contains("\tat ") || s.contains("Exception in"), s);
        }
    }

    /** The one JSON document {@code text} holds; fails on anything else. */
    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not one JSON document: " + text, e);
        }
    }
}
