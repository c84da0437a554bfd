package io.timelinearchive.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Lengthens a Hudi 1.x timeline ({@code .hoodie/timeline/}, table version 8) as {@link
 * TimelineLengthener} lengthens a 0.x one: copies of the last commit and the clean after it
 * (requested, inflight and completed file each) under new instant times, one second apart. In 1.x a
 * completed file is named {@code <requested>_<completion>.<action>}, so each copy gets a completion
 * time too: a commit requested at second s completes at s + 250 ms, its clean is requested at s +
 * 500 ms and completes at s + 750 ms, whatever the originals took, so that no copy's times cross
 * another's. Instant content is Avro in 1.x (commit metadata too), its strings length-prefixed:
 * every 17-digit instant time inside a copied file (a write stat's file name and previous commit, a
 * clean's start time, earliest commit to retain, last completed commit and deleted files) is moved,
 * requested time to requested time and completion time to completion time, by as many commits (or
 * cleans) as the copy itself, with a time of the same length, so each copy refers to its own
 * predecessors as the original did and every length prefix stays right.
 */
final class Hudi1TimelineLengthener {
  private static final int TIME_LENGTH = 17;
  private static final Pattern INSTANT_FILE = Pattern.compile("^(\\d{17})(?:_(\\d{17}))?(\\..+)$");

  private Hudi1TimelineLengthener() {}

  /** An instant of the timeline: its requested time and, once completed, its completion time. */
  record Times(String requested, String completion) {}

  static Path timeline(Path table) {
    return table.resolve(".hoodie").resolve("timeline");
  }

  /**
   * Adds commit-and-clean pairs to the 1.x table at {@code table} until its timeline folder holds
   * at least {@code instantFiles} instant files.
   *
   * @return the number of instant files now in the timeline
   */
  static int lengthen(Path table, int instantFiles) throws IOException {
    Path timeline = timeline(table);
    TreeMap<String, List<String>> filesByTime = instantFiles(timeline);
    int existing = filesByTime.values().stream().mapToInt(List::size).sum();
    List<String> times = new ArrayList<>(filesByTime.keySet());
    int last = times.size() - 1;
    if (last < 1
        || !isClean(filesByTime.get(times.get(last)))
        || isClean(filesByTime.get(times.get(last - 1)))) {
      throw new IllegalStateException(
          timeline + " does not end with a commit and a clean: " + times);
    }
    Map<String, byte[]> templates = new TreeMap<>();
    for (String time : List.of(times.get(last - 1), times.get(last))) {
      for (String name : filesByTime.get(time)) {
        templates.put(name, Files.readAllBytes(timeline.resolve(name)));
      }
    }
    int units = Math.max(0, (instantFiles - existing + templates.size() - 1) / templates.size());
    // Commits and cleans are counted apart: a reference to the k-th commit before the template
    // commit becomes the k-th commit before the copy (the table's first commits have no cleans).
    List<Times> commits = new ArrayList<>();
    List<Times> cleans = new ArrayList<>();
    String latest = times.get(last);
    for (String time : times) {
      Times t = new Times(time, completion(filesByTime.get(time)));
      (isClean(filesByTime.get(time)) ? cleans : commits).add(t);
      if (t.completion() != null && t.completion().compareTo(latest) > 0) {
        latest = t.completion();
      }
    }
    Map<String, Reference> references = new HashMap<>();
    for (List<Times> kind : List.of(commits, cleans)) {
      int originals = kind.size();
      for (int i = 0; i < originals; i++) {
        Times t = kind.get(i);
        references.put(t.requested(), new Reference(kind, originals, i - (originals - 1), false));
        if (t.completion() != null) {
          references.put(t.completion(), new Reference(kind, originals, i - (originals - 1), true));
        }
      }
    }
    LocalDateTime start =
        LocalDateTime.parse(latest, TimelineLengthener.INSTANT_TIME).plusSeconds(1);
    for (int u = 0; u < units; u++) {
      LocalDateTime second = start.plusSeconds(u);
      commits.add(new Times(format(second), format(second.plusNanos(250_000_000L))));
      cleans.add(
          new Times(
              format(second.plusNanos(500_000_000L)), format(second.plusNanos(750_000_000L))));
    }
    for (int u = 0; u < units; u++) {
      int copy = u;
      Function<String, String> moved =
          original -> {
            Reference r = references.get(original);
            if (r == null) {
              return null;
            }
            Times t = r.timeline().get(r.originals() + copy + r.offset());
            return r.completion() ? t.completion() : t.requested();
          };
      for (Map.Entry<String, byte[]> template : templates.entrySet()) {
        Matcher m = INSTANT_FILE.matcher(template.getKey());
        if (!m.matches()) {
          throw new IllegalStateException("not an instant file: " + template.getKey());
        }
        String requested = moved.apply(m.group(1));
        String completion = m.group(2) == null ? null : moved.apply(m.group(2));
        String name = requested + (completion == null ? "" : "_" + completion) + m.group(3);
        Path file = timeline.resolve(name);
        Files.write(file, TimelineLengthener.shifted(template.getValue(), moved));
        // requested, then inflight, then completed, each at its time
        long millis = millis(completion != null ? completion : requested);
        Files.setLastModifiedTime(
            file, FileTime.fromMillis(millis + (name.endsWith(".inflight") ? 1 : 0)));
      }
    }
    return existing + units * templates.size();
  }

  /**
   * An instant of the original timeline: {@code offset} instants of its kind (0 or less) from the
   * template's one, in {@code timeline} ({@code originals} instants from the original table, then
   * one per copy); {@code completion} if the time referred to is its completion time.
   */
  private record Reference(List<Times> timeline, int originals, int offset, boolean completion) {}

  /** The instant files of a 1.x timeline folder by requested time (checksums and folders aside). */
  static TreeMap<String, List<String>> instantFiles(Path timeline) throws IOException {
    TreeMap<String, List<String>> byTime = new TreeMap<>();
    try (Stream<Path> files = Files.list(timeline)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = f.getFileName().toString();
        Matcher m = INSTANT_FILE.matcher(name);
        if (m.matches()) {
          byTime.computeIfAbsent(m.group(1), t -> new ArrayList<>()).add(name);
        }
      }
    }
    return byTime;
  }

  /** The completion time in the names of one instant's files, null while it is pending. */
  static String completion(List<String> names) {
    for (String name : names) {
      Matcher m = INSTANT_FILE.matcher(name);
      if (m.matches() && m.group(2) != null) {
        return m.group(2);
      }
    }
    return null;
  }

  private static boolean isClean(List<String> names) {
    return names.stream().anyMatch(n -> n.contains(".clean"));
  }

  private static String format(LocalDateTime time) {
    String s = time.format(TimelineLengthener.INSTANT_TIME);
    if (s.length() != TIME_LENGTH) {
      throw new IllegalStateException("instant time " + s + " is not 17 digits");
    }
    return s;
  }

  private static long millis(String time) {
    return LocalDateTime.parse(time, TimelineLengthener.INSTANT_TIME)
        .toInstant(ZoneOffset.UTC)
        .toEpochMilli();
  }
}
