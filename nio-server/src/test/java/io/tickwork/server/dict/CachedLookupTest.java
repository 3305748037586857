package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.http.HttpServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server whose word cache has two slots (so nearly every new word evicts another) answers every
 * {@code /d} request byte for byte as a server without the cache: each word twice in a row (the
 * second from the cache), in three rounds, forward and back.
 */
@Timeout(120)
class CachedLookupTest {
    static HttpServer cached;
    static HttpServer uncached;
    static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        Dictionary dict = Dictionary.openEmbedded();
        cached = HttpServer.builder(new DictionaryHandler(dict, null, 2))
                .port(0)
                .threads(1)
                .start();
        uncached = HttpServer.builder(new DictionaryHandler(dict, null, 0))
                .port(0)
                .threads(1)
                .start();
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() {
        cached.close();
        uncached.close();
    }

    static HttpResponse<String> get(HttpServer server, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void cachedAnswersAreTheLookupsAnswersUnderEviction() throws Exception {
        List<String> paths = new ArrayList<>();
        for (String prefix : new String[] {"do", "ru", "ice", "zy"}) {
            String body = get(uncached, "/s/" + prefix + "?limit=40").body();
            Matcher m =
                    Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(body.substring(body.indexOf("\"words\":[")));
            m.find(); // the key "words"
            while (m.find()) {
                paths.add("/d/"
                        + URLEncoder.encode(m.group(1), StandardCharsets.UTF_8).replace("+", "%20"));
            }
        }
        // the same words through other spellings of the query, an inflection and an unknown word
        paths.addAll(List.of("/d/DOOR", "/d/ice_cream", "/d/Ice%20Cream", "/d/geese", "/d/ran", "/d/zebrax"));
        assertTrue(paths.size() > 100, "words: " + paths.size());
        int checked = 0;
        for (int round = 0; round < 3; round++) {
            for (String p : paths) {
                HttpResponse<String> want = get(uncached, p);
                // the first answer may come from a lookup, the second from the slot it just filled
                for (int again = 0; again < 2; again++) {
                    HttpResponse<String> got = get(cached, p);
                    assertEquals(want.statusCode(), got.statusCode(), p);
                    assertEquals(want.body(), got.body(), p);
                    assertEquals(
                            want.headers().firstValue("content-type"),
                            got.headers().firstValue("content-type"));
                    checked++;
                }
            }
            // the next round in reverse order hits the two words just kept, then evicts them
            Collections.reverse(paths);
        }
        assertEquals(6 * paths.size(), checked);
    }
}
