package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.server.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The dictionary routes through the real server, with the JDK's HTTP client. */
@Timeout(60)
class DictionaryServerTest {
    static HttpServer server;
    static HttpClient client;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.builder(new DictionaryHandler(Dictionary.openEmbedded()))
                .port(0)
                .threads(2)
                .start();
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void wordAsJson() throws Exception {
        HttpResponse<String> r = get("/d/dog");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("content-type").orElse(""));
        assertTrue(
                r.body()
                        .startsWith(
                                "{\"word\":\"dog\",\"query\":\"dog\",\"senses\":[{\"pos\":\"noun\",\"gloss\":\"a member of the genus Canis"),
                r.body());
        assertTrue(
                r.body()
                        .contains(
                                "\"examples\":[\"the dog barked all night\"],\"synonyms\":[\"dog\",\"domestic dog\",\"Canis familiaris\"]"),
                r.body());
        assertTrue(r.body().endsWith("]}"), r.body());
    }

    @Test
    void percentEncodedMultiWordAndInflectedForms() throws Exception {
        assertTrue(get("/d/Ice%20Cream").body().startsWith("{\"word\":\"ice cream\""));
        assertTrue(get("/d/ice_cream").body().startsWith("{\"word\":\"ice cream\""));
        assertTrue(get("/d/geese").body().startsWith("{\"word\":\"goose\",\"query\":\"geese\""));
        assertTrue(get("/d/ran").body().startsWith("{\"word\":\"run\",\"query\":\"ran\""));
        assertTrue(
                get("/d/saw").body().startsWith("{\"word\":\"saw\",\"query\":\"saw\",\"forms\":[\"saw\",\"see\"]"),
                "a lemma that is also an inflection");
    }

    @Test
    void unknownWordIs404WithCloseWords() throws Exception {
        HttpResponse<String> r = get("/d/zebrax");
        assertEquals(404, r.statusCode());
        assertEquals(
                "{\"query\":\"zebrax\",\"error\":\"not found\",\"suggestions\":[\"zebra\",\"zebra crossing\",\"zebra finch\",\"zebra mussel\",\"zebra orchid\",\"zebra-tailed lizard\",\"zebrawood\",\"zebrawood family\",\"zebrawood tree\"]}",
                r.body());
        assertEquals(400, get("/d/%FF").statusCode(), "not UTF-8");
        for (String empty : new String[] {"/d/", "/d/_", "/d/%20"}) {
            HttpResponse<String> none = get(empty);
            assertEquals(400, none.statusCode(), empty + ": no word to look up");
            assertEquals("{\"status\":400,\"error\":\"no word: /d/{word}\"}", none.body());
        }
    }

    /** The limit is on the decoded bytes, before underscores and spaces are collapsed. */
    @Test
    void aQueryOver256BytesDecodedIs400() throws Exception {
        String padded = "_".repeat(254) + "cat"; // 257 decoded, "cat" once normalized
        for (String route : new String[] {"/d/", "/s/"}) {
            assertEquals(400, get(route + padded).statusCode(), route);
            assertEquals(200, get(route + padded.substring(1)).statusCode(), route + ", 256 bytes");
        }
        assertEquals(400, get("/d/" + "%C3%A9".repeat(129)).statusCode(), "258 bytes of 129 characters");
    }

    @Test
    void prefixSuggestionsWithLimit() throws Exception {
        HttpResponse<String> r = get("/s/ice%20c?limit=3");
        assertEquals(200, r.statusCode());
        assertEquals(
                "{\"prefix\":\"ice c\",\"total\":6,\"words\":[\"ice cap\",\"ice chest\",\"ice coffee\"]}", r.body());
        assertEquals(
                "{\"prefix\":\"zzz\",\"total\":0,\"words\":[]}", get("/s/zzz").body());
        assertEquals(400, get("/s/a?limit=0").statusCode());
        assertEquals(400, get("/s/a?limit=x").statusCode());
        // ASCII digits only: Integer.parseInt takes a sign and other scripts' digits
        assertEquals(400, get("/s/a?limit=%2B3").statusCode());
        assertEquals(400, get("/s/a?limit=%D9%A3").statusCode());
        assertEquals(400, get("/s/a?limit=").statusCode());
        assertEquals(200, get("/s/a?limit=0003").statusCode());
        assertEquals(200, get("/s/a?limit=0000000005").statusCode());
        assertTrue(get("/s/a?limit=1000").body().split(",").length > 1000);
    }

    @Test
    void pageAndAssetsFromTheJar() throws Exception {
        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("content-type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("<script src=\"/app.js\">"));
        assertTrue(page.body().indexOf("http") < 0 || !page.body().contains("cdn"), "no CDN");
        assertTrue(get("/app.js").body().contains("/s/"));
        assertTrue(get("/style.css").body().contains("#suggestions"));
        assertTrue(get("/license").body().contains("Princeton University"));
        assertEquals(404, get("/nope").statusCode());
    }

    @Test
    void headEverywhereGetIs() throws Exception {
        for (String path : new String[] {"/", "/d/dog", "/s/a", "/stats", "/d/qqqqq"}) {
            HttpResponse<String> h = client.send(
                    HttpRequest.newBuilder(URI.create(base + path))
                            .method("HEAD", HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> g = get(path);
            assertEquals(g.statusCode(), h.statusCode(), path);
            assertEquals("", h.body());
            if (!path.equals("/stats")) {
                assertEquals(
                        g.headers().firstValue("content-length"), h.headers().firstValue("content-length"), path);
            }
        }
    }

    @Test
    void statsAsJson() throws Exception {
        String s = get("/stats").body();
        for (String k :
                new String[] {"openConnections", "requests", "bytesIn", "bytesOut", "uptimeMillis", "words\":147478"}) {
            assertTrue(s.contains("\"" + k), s);
        }
    }
}
