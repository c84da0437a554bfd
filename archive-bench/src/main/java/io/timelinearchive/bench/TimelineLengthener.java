package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Lengthens a timeline Hudi wrote by copying its last commit and the clean after it (requested,
 * inflight and completed file each) under new instant times, as Hudi names them (17 digits,
 * milliseconds), one second apart. Every instant time inside a copied file (prevCommit, the file
 * names of write stats, the clean plan's earliest instant to retain, the files a clean deleted) is
 * moved by as many commits (or cleans) as the copy itself, so each copy refers to its own
 * predecessors as the original did.
 */
final class TimelineLengthener {
  static final DateTimeFormatter INSTANT_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  private static final int TIME_LENGTH = 17;

  private TimelineLengthener() {}

  /**
   * Adds commit-and-clean pairs to the table at {@code table} until its {@code .hoodie/} folder
   * holds at least {@code instantFiles} instant files.
   *
   * @return the number of instant files now in the timeline
   */
  static int lengthen(Path table, int instantFiles) throws IOException {
    Path meta = table.resolve(".hoodie");
    TreeMap<String, List<String>> filesByTime = instantFiles(meta);
    int existing = filesByTime.values().stream().mapToInt(List::size).sum();
    List<String> times = new ArrayList<>(filesByTime.keySet());
    int last = times.size() - 1;
    if (last < 1
        || !isClean(filesByTime.get(times.get(last)))
        || isClean(filesByTime.get(times.get(last - 1)))) {
      throw new IllegalStateException(
          meta + " does not end with a commit and a clean: " + times.subList(last - 1, last + 1));
    }
    String commit = times.get(last - 1);
    Map<String, byte[]> templates = new TreeMap<>();
    for (String time : List.of(commit, times.get(last))) {
      for (String name : filesByTime.get(time)) {
        templates.put(name, Files.readAllBytes(meta.resolve(name)));
      }
    }
    int units = Math.max(0, (instantFiles - existing + templates.size() - 1) / templates.size());
    // Commits and cleans are counted apart: a reference to the k-th commit before the template
    // commit becomes the k-th commit before the copy (the table's first commits have no cleans).
    List<String> commits = new ArrayList<>();
    List<String> cleans = new ArrayList<>();
    for (String time : times) {
      (isClean(filesByTime.get(time)) ? cleans : commits).add(time);
    }
    Map<String, Reference> references = new HashMap<>();
    for (int i = 0; i < commits.size(); i++) {
      references.put(
          commits.get(i), new Reference(commits, commits.size(), i - (commits.size() - 1)));
    }
    for (int i = 0; i < cleans.size(); i++) {
      references.put(cleans.get(i), new Reference(cleans, cleans.size(), i - (cleans.size() - 1)));
    }
    LocalDateTime start = LocalDateTime.parse(times.get(last), INSTANT_TIME).plusSeconds(1);
    for (int u = 0; u < units; u++) {
      LocalDateTime commitTime = start.plusSeconds(u);
      commits.add(commitTime.format(INSTANT_TIME));
      cleans.add(commitTime.plusNanos(500_000_000L).format(INSTANT_TIME));
    }
    for (int u = 0; u < units; u++) {
      int copy = u;
      Function<String, String> moved =
          original -> {
            Reference r = references.get(original);
            if (r == null) {
              return null;
            }
            return r.timeline().get(r.originals() + copy + r.offset());
          };
      for (Map.Entry<String, byte[]> template : templates.entrySet()) {
        String name = template.getKey();
        String newTime = moved.apply(name.substring(0, TIME_LENGTH));
        Path file = meta.resolve(newTime + name.substring(TIME_LENGTH));
        Files.write(file, shifted(template.getValue(), moved));
        long millis =
            LocalDateTime.parse(newTime, INSTANT_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
        // requested, then inflight, then completed: their times order the transitions
        Files.setLastModifiedTime(file, FileTime.fromMillis(millis + stateOrder(name)));
      }
    }
    return existing + units * templates.size();
  }

  /**
   * An instant of the original timeline: {@code offset} instants of its kind (0 or less) from the
   * template's one, in {@code timeline} (the commits' or the cleans' times, {@code originals} of
   * them from the original table, then one per copy).
   */
  private record Reference(List<String> timeline, int originals, int offset) {}

  /**
   * {@code bytes} with every run of exactly 17 digits that {@code moved} knows (an instant time of
   * the original timeline) replaced by its time in the copy. Equal lengths keep Avro's length
   * prefixes and JSON valid.
   */
  static byte[] shifted(byte[] bytes, Function<String, String> moved) {
    byte[] out = bytes.clone();
    int i = 0;
    while (i < out.length) {
      if (!isDigit(out[i])) {
        i++;
        continue;
      }
      int end = i;
      while (end < out.length && isDigit(out[end])) {
        end++;
      }
      if (end - i == TIME_LENGTH) {
        String replacement = moved.apply(new String(out, i, TIME_LENGTH, US_ASCII));
        if (replacement != null) {
          System.arraycopy(replacement.getBytes(US_ASCII), 0, out, i, TIME_LENGTH);
        }
      }
      i = end;
    }
    return out;
  }

  /** The instant files of {@code meta} (names that start with a 17-digit time) by time. */
  static TreeMap<String, List<String>> instantFiles(Path meta) throws IOException {
    TreeMap<String, List<String>> byTime = new TreeMap<>();
    try (Stream<Path> files = Files.list(meta)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = f.getFileName().toString();
        if (name.length() > TIME_LENGTH
            && name.charAt(TIME_LENGTH) == '.'
            && name.substring(0, TIME_LENGTH).chars().allMatch(Character::isDigit)) {
          byTime.computeIfAbsent(name.substring(0, TIME_LENGTH), t -> new ArrayList<>()).add(name);
        }
      }
    }
    return byTime;
  }

  private static boolean isClean(List<String> names) {
    return names.stream().anyMatch(n -> n.contains(".clean"));
  }

  private static int stateOrder(String name) {
    if (name.endsWith(".requested")) {
      return 0;
    }
    return name.endsWith(".inflight") ? 1 : 2;
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }
}
