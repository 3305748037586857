package io.tickwork.client.bench;

import io.tickwork.client.common.UsageException;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Words to put in request paths: from a file (one per line, e.g. the dictionary server's word
 * list) or a small built-in list of common English words that any dictionary should define.
 */
final class Words {
    private Words() {}

    static final String[] BUILT_IN =
            ("time year people way day man thing woman life child world school state family student "
                            + "group country problem hand part place case week company system program question work "
                            + "government number night point home water room mother area money story fact month lot "
                            + "right study book eye job word business issue side kind head house service friend father "
                            + "power hour game line end member law car city community name president team minute idea "
                            + "kid body information back parent face others level office door health person art war "
                            + "history party result change morning reason research girl guy moment air teacher force "
                            + "education foot boy age policy process music market sense nation plan college interest "
                            + "death experience effect use class control care field development role effort rate heart "
                            + "drug show leader light voice wife police mind price report decision son view "
                            + "relationship town road arm difference value building action model season society tax "
                            + "director position player record paper space ground form event official matter center "
                            + "couple site project activity star table need court oil situation cost industry figure "
                            + "street image phone data picture practice piece land product doctor wall patient worker "
                            + "news test movie north love support technology step baby computer type attention film "
                            + "tree source organization hair window evidence population site ball bank dog cat fish "
                            + "bird river mountain ocean island forest garden flower apple bread cheese coffee tea "
                            + "clock chair bed cup spoon knife fork glass bottle box bag shoe hat coat shirt dress "
                            + "ring key lock bridge ship train plane wheel engine machine tool hammer nail rope chain "
                            + "stone sand salt sugar milk egg rice corn wheat horse cow sheep pig goat mouse rabbit "
                            + "lion tiger bear wolf fox deer snake frog bee ant fly spider cloud rain snow wind storm "
                            + "fire smoke ice steam gold silver iron copper glass wood paper cotton wool silk leather "
                            + "run walk jump swim read write speak listen think know learn teach build break make "
                            + "happy sad angry calm quick slow bright dark warm cold soft hard sweet bitter")
                    .split("\\s+");

    /** The most bytes a {@code --urls} or {@code --word-file} file may hold: far more than 1,000,000 requests need. */
    static final int MAX_FILE_BYTES = 64 << 20;

    /**
     * The non-blank, non-comment lines of {@code file}, given as {@code option}, trimmed. Read as a
     * stream, so memory follows the lines kept: a file that is missing, unreadable, not UTF-8 text,
     * over {@link #MAX_FILE_BYTES} (a device such as {@code /dev/zero} too) or of more lines than a
     * run holds ({@link BenchCommand#MAX_TARGETS}) is refused with a {@link UsageException} saying so.
     */
    static List<String> load(String option, Path file) {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(new Bounded(Files.newInputStream(file)), StandardCharsets.UTF_8.newDecoder()))) {
            String line;
            while ((line = r.readLine()) != null) {
                String w = line.trim();
                if (!w.isEmpty() && !w.startsWith("#")) {
                    if (out.size() == BenchCommand.MAX_TARGETS) {
                        throw new UsageException(option + ": " + file + " has more than " + BenchCommand.MAX_TARGETS
                                + " lines, more than a run holds");
                    }
                    out.add(w);
                }
            }
        } catch (NoSuchFileException e) {
            throw new UsageException(option + ": no such file: " + file);
        } catch (AccessDeniedException e) {
            throw new UsageException(option + ": cannot read " + file + ": permission denied");
        } catch (CharacterCodingException e) {
            throw new UsageException(option + ": " + file + " is not UTF-8 text");
        } catch (Bounded.TooLarge e) {
            throw new UsageException(option + ": " + file + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB");
        } catch (IOException e) {
            throw new UsageException(option + ": cannot read " + file + ": " + e.getMessage());
        }
        if (out.isEmpty()) {
            throw new UsageException(option + ": " + file + " has no lines but blanks and # comments");
        }
        return out;
    }

    /** A stream that fails once more than {@link #MAX_FILE_BYTES} have been read from it. */
    private static final class Bounded extends FilterInputStream {
        static final class TooLarge extends IOException {
            TooLarge() {
                super("larger than " + MAX_FILE_BYTES + " bytes");
            }
        }

        private long read;

        Bounded(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            count(c < 0 ? 0 : 1);
            return c;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > MAX_FILE_BYTES) {
                throw new TooLarge();
            }
        }
    }

    /** Percent-encodes everything but RFC 3986 unreserved characters. */
    static String encode(String word) {
        StringBuilder sb = new StringBuilder();
        for (byte b : word.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }
}
