package io.tickwork.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tickwork.server.dict.Dictionary;
import io.tickwork.server.dict.DictionaryHandler;
import io.tickwork.server.http.HttpServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The lookup page in a real browser: headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}) driven by Selenium against the real server on an ephemeral loopback
 * port. It types a prefix and sees suggestions, picks one with the keyboard and with the mouse and
 * sees the definitions, looks up an unknown word and sees the close words, and stops the server to
 * see the "cannot reach" message. Each test saves a screenshot under
 * {@code nio-server/target/e2e/}.
 *
 * <p>Without Chromium the tests are skipped with the command that installs it; under CI (the
 * {@code CI} variable set, as {@code .ci/run} is run) a missing browser fails instead, so CI never
 * passes by skipping. Override the paths with {@code TICKWORK_CHROMIUM} and
 * {@code TICKWORK_CHROMEDRIVER}.
 */
@Timeout(120)
class LookupPageBrowserTest {
    static final Duration WAIT = Duration.ofSeconds(15);
    static final Path SHOTS = Path.of("target", "e2e");

    static File chromium;
    static File chromedriver;
    static HttpServer server;
    static String base;

    WebDriver driver;
    WebDriverWait wait;

    @TempDir
    Path profile;

    @BeforeAll
    static void startBrowserServiceAndServer() throws IOException {
        chromium = find("TICKWORK_CHROMIUM", "/usr/bin/chromium", "/usr/bin/chromium-browser");
        chromedriver = find("TICKWORK_CHROMEDRIVER", "/usr/bin/chromedriver");
        if (chromium == null || chromedriver == null) {
            String how = "Chromium or chromedriver not found; install them to run the browser test: "
                    + "apt-get update && apt-get install -y chromium chromium-driver "
                    + "(or set TICKWORK_CHROMIUM and TICKWORK_CHROMEDRIVER)";
            if (System.getenv("CI") != null) {
                fail(how + " (CI is set, so this is a failure rather than a skip)");
            }
            Assumptions.abort(how);
        }
        Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE);
        server = HttpServer.builder(new DictionaryHandler(Dictionary.openEmbedded()))
                .port(0)
                .threads(1)
                .start();
        base = "http://127.0.0.1:" + server.port();
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void stopAll() {
        if (server != null) {
            server.close();
        }
    }

    static File find(String env, String... candidates) {
        String override = System.getenv(env);
        if (override != null && new File(override).canExecute()) {
            return new File(override);
        }
        for (String c : candidates) {
            File f = new File(c);
            if (f.canExecute()) {
                return f;
            }
        }
        return null;
    }

    @BeforeEach
    void openBrowser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1100,900",
                "--user-data-dir=" + profile.toAbsolutePath());
        // One driver service per browser: quitting a driver stops the service it was started with.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver)
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        wait = new WebDriverWait(driver, WAIT);
        // the list is rebuilt after every answer: an element read while that happens is stale,
        // and the next poll reads the new one
        wait.ignoring(StaleElementReferenceException.class);
    }

    @AfterEach
    void screenshotAndClose(TestInfo info) throws IOException {
        if (driver == null) {
            return;
        }
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(
                    shot.toPath(),
                    SHOTS.resolve(info.getTestMethod().orElseThrow().getName() + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        } finally {
            driver.quit();
        }
    }

    List<String> suggestions() {
        return driver.findElements(By.cssSelector("#suggestions li")).stream()
                .map(WebElement::getText)
                .collect(Collectors.toList());
    }

    WebElement typeAndAwaitSuggestions(String prefix) {
        WebElement q = wait.until(ExpectedConditions.elementToBeClickable(By.id("q")));
        q.sendKeys(prefix);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("suggestions")));
        wait.until(d -> !suggestions().isEmpty() && suggestions().stream().allMatch(s -> s.startsWith(prefix)));
        return q;
    }

    static String firstGlossFromApi(String word) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String body = client.send(
                        HttpRequest.newBuilder(URI.create(base + "/d/" + word)).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        String marker = "\"gloss\":\"";
        int from = body.indexOf(marker) + marker.length();
        return body.substring(from, body.indexOf('"', from));
    }

    @Test
    void typePrefixPickSuggestionWithKeyboardSeeDefinitions() throws Exception {
        driver.get(base + "/");
        WebElement q = typeAndAwaitSuggestions("zebr");
        List<String> shown = suggestions();
        assertTrue(shown.contains("zebra"), "suggestions for 'zebr': " + shown);
        String first = shown.get(0);

        q.sendKeys(Keys.ARROW_DOWN);
        wait.until(d -> "true".equals(d.findElement(By.id("opt0")).getAttribute("aria-selected")));
        q.sendKeys(Keys.ENTER);

        WebElement word = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#result h2.word")));
        assertEquals(first, word.getText());
        String gloss = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#result .gloss")))
                .getText();
        assertEquals(firstGlossFromApi(first.replace(" ", "%20")), gloss, "the page shows the API's first gloss");
        assertTrue(driver.getCurrentUrl().endsWith("/?w=" + first.replace(" ", "%20")), driver.getCurrentUrl());
        assertFalse(driver.findElement(By.id("suggestions")).isDisplayed(), "suggestions close after a pick");
    }

    @Test
    void clickSuggestionForMultiWordLemma() {
        driver.get(base + "/");
        typeAndAwaitSuggestions("ice c");
        WebElement iceCream = wait.until(d -> d.findElements(By.cssSelector("#suggestions li")).stream()
                .filter(li -> li.getText().equals("ice cream"))
                .findFirst()
                .orElse(null));
        iceCream.click();
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#result h2.word"), "ice cream"));
        assertTrue(driver.findElements(By.cssSelector("#result .gloss")).size() >= 1);
        assertTrue(driver.findElement(By.cssSelector("#result h3.pos"))
                .getText()
                .toLowerCase(java.util.Locale.ROOT)
                .startsWith("noun"));
    }

    @Test
    void unknownWordShowsNotFoundWithCloseWords() {
        driver.get(base + "/");
        WebElement q = wait.until(ExpectedConditions.elementToBeClickable(By.id("q")));
        q.sendKeys("zebrax");
        q.sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("result"), "Not in WordNet."));
        List<String> close = driver.findElements(By.cssSelector("#result .close a")).stream()
                .map(WebElement::getText)
                .collect(Collectors.toList());
        assertTrue(close.contains("zebra"), "close words: " + close);

        // a close word is a link that looks the word up
        driver.findElements(By.cssSelector("#result .close a")).stream()
                .filter(a -> a.getText().equals("zebra"))
                .findFirst()
                .orElseThrow()
                .click();
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#result h2.word"), "zebra"));
    }

    @Test
    void inflectedFormIsExplained() {
        driver.get(base + "/?w=geese");
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#result h2.word"), "goose"));
        assertTrue(
                driver.findElement(By.id("result")).getText().contains("is a form of goose"),
                driver.findElement(By.id("result")).getText());
    }

    @Test
    void serverUnreachableShowsClearMessage() throws IOException {
        HttpServer own = HttpServer.builder(new DictionaryHandler(Dictionary.openEmbedded()))
                .port(0)
                .threads(1)
                .start();
        try {
            driver.get("http://127.0.0.1:" + own.port() + "/");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("q")));
            assertFalse(driver.findElement(By.id("offline")).isDisplayed());
        } finally {
            own.close();
        }
        WebElement q = driver.findElement(By.id("q"));
        q.sendKeys("dog");
        q.sendKeys(Keys.ENTER);
        WebElement banner = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offline")));
        assertTrue(banner.getText().startsWith("Cannot reach the dictionary server"), banner.getText());
    }
}
