// Prints the load client's built-in word list (io.tickwork.server.client.bench.Words.BUILT_IN),
// one word per line, for words.lua. From the repository root, after a build:
//   java -cp nio-server/target/tickwork-server.jar docs/results/anchors/BuiltInWords.java > /tmp/words.txt
import java.lang.reflect.Field;

public class BuiltInWords {
    public static void main(String[] args) throws Exception {
        Field f = Class.forName("io.tickwork.server.client.bench.Words").getDeclaredField("BUILT_IN");
        f.setAccessible(true);
        for (String w : (String[]) f.get(null)) {
            System.out.println(w);
        }
    }
}
