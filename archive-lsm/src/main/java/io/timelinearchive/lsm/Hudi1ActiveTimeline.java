package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineFormat;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The active timeline of a Hudi 1.x table: the instant files of {@code .hoodie/timeline/}, from one
 * listing of its direct children (the {@code history/} folder below it is not listed).
 *
 * @param folder the timeline folder
 * @param files instant files, sorted by {@link Hudi1Instant#ORDER}
 * @param malformed names that look like instants but are none; reported and left alone
 */
public record Hudi1ActiveTimeline(
    StorageLocation folder,
    List<Hudi1TimelineFile> files,
    List<Hudi1InstantFileName.Result.Malformed> malformed) {

  /** Hudi's instant time format, to the millisecond. */
  private static final DateTimeFormatter INSTANT_TIME =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  /** Hudi's key for the time zone of its instant times: {@code UTC}, else the JVM's own zone. */
  static final String TIMEZONE_KEY = "hoodie.table.timeline.timezone";

  public Hudi1ActiveTimeline {
    requireNonNull(folder, "folder is null");
    files = List.copyOf(files);
    malformed = List.copyOf(malformed);
  }

  /**
   * Lists the table's timeline folder once.
   *
   * @param storage the table's storage
   * @param table a Hudi 1.x table (see {@link HoodieTable#inspect})
   * @return its active timeline
   * @throws IllegalArgumentException if the table is not a Hudi 1.x one
   * @throws IOException if the storage fails
   */
  public static Hudi1ActiveTimeline load(MetaStorage storage, HoodieTable table)
      throws IOException {
    requireNonNull(storage, "storage is null");
    if (table.format() != TimelineFormat.HUDI_1_LSM) {
      throw new IllegalArgumentException(table.base() + " is not a Hudi 1.x table");
    }
    ZoneId zone =
        "UTC".equalsIgnoreCase(table.properties().getOrDefault(TIMEZONE_KEY, ""))
            ? ZoneOffset.UTC
            : ZoneId.systemDefault();
    StorageLocation folder = table.timelineFolder();
    List<Hudi1TimelineFile> files = new ArrayList<>();
    List<Hudi1InstantFileName.Result.Malformed> malformed = new ArrayList<>();
    FileIterator listing = storage.list(folder);
    while (listing.hasNext()) {
      FileEntry entry = listing.next();
      Hudi1InstantFileName.Result result = Hudi1InstantFileName.parse(entry.name());
      if (result instanceof Hudi1InstantFileName.Result.Parsed p) {
        files.add(new Hudi1TimelineFile(instant(p, entry, zone), entry));
      } else if (result instanceof Hudi1InstantFileName.Result.Malformed m) {
        malformed.add(m);
      }
    }
    files.sort(Comparator.comparing(Hudi1TimelineFile::instant, Hudi1Instant.ORDER));
    return new Hudi1ActiveTimeline(folder, files, malformed);
  }

  /**
   * The instant a file name says; a legacy completed name's completion time is, as Hudi takes it,
   * the file's modification time in the table's time zone.
   */
  private static Hudi1Instant instant(
      Hudi1InstantFileName.Result.Parsed p, FileEntry file, ZoneId zone) {
    Optional<String> completion = p.completionTime();
    if (p.state().isPending()) {
      completion = Optional.empty();
    } else if (completion.isEmpty()) {
      completion = Optional.of(INSTANT_TIME.format(file.lastModified().atZone(zone)));
    }
    return new Hudi1Instant(p.requestedTime(), p.action(), p.state(), completion);
  }

  /** The instants, sorted by {@link Hudi1Instant#ORDER}. */
  public List<Hudi1Instant> instants() {
    return files.stream().map(Hudi1TimelineFile::instant).toList();
  }

  /**
   * Each instant once, in its latest state (completed over inflight over requested): the active
   * timeline as Hudi 1.x's own reader shows it, which keeps one state per instant. A compaction's
   * completed {@code commit} is the same instant as its pending {@code compaction}.
   *
   * @return the files of the latest states, sorted by {@link Hudi1Instant#ORDER}
   */
  public List<Hudi1TimelineFile> latestStates() {
    Map<String, Hudi1TimelineFile> latest = new LinkedHashMap<>();
    for (Hudi1TimelineFile file : files) {
      Hudi1Instant i = file.instant();
      latest.merge(
          i.requestedTime() + " " + Hudi1Actions.completedAs(i.action()),
          file,
          (a, b) -> a.instant().state().compareTo(b.instant().state()) >= 0 ? a : b);
    }
    return List.copyOf(latest.values());
  }

  /**
   * This timeline as archive-core's model, for selection: each file as the state it names, with its
   * real 1.x name and location ({@code T_C.commit} stays {@code T_C.commit}); the completion times,
   * which the model has no place for, are in {@link #completionTimes}.
   */
  public ActiveTimeline asActiveTimeline() {
    List<TimelineFile> converted = new ArrayList<>(files.size());
    for (Hudi1TimelineFile file : files) {
      converted.add(new TimelineFile(toCore(file.instant()), file.file()));
    }
    converted.sort(Comparator.comparing(TimelineFile::instant));
    List<InstantFileName.Result.Malformed> bad = new ArrayList<>(malformed.size());
    for (Hudi1InstantFileName.Result.Malformed m : malformed) {
      bad.add(new InstantFileName.Result.Malformed(m.fileName(), m.reason()));
    }
    return new ActiveTimeline(folder, converted, bad);
  }

  /**
   * When each completed instant completed, by the key its state files share in archive-core's model
   * (what {@link io.timelinearchive.select.TableFacts#completionTimes()} takes).
   */
  public Map<InstantKey, String> completionTimes() {
    Map<InstantKey, String> times = new HashMap<>();
    for (Hudi1TimelineFile file : files) {
      Hudi1Instant i = file.instant();
      i.completionTime().ifPresent(c -> times.put(toCore(i).key(), c));
    }
    return times;
  }

  /** An instant state in archive-core's model; every action Hudi 1.0 names is one of its. */
  static TimelineInstant toCore(Hudi1Instant instant) {
    Action action =
        Action.fromHudi1Name(instant.action())
            .orElseThrow(
                () -> new IllegalArgumentException("not a Hudi 1.x action: " + instant.action()));
    return new TimelineInstant(instant.requestedTime(), action, instant.state());
  }

  /**
   * The bytes of an instant's file, as Hudi reads them as the instant's details.
   *
   * @throws java.nio.file.NoSuchFileException if the file is gone (archived or rolled back since
   *     the listing)
   */
  public static byte[] read(MetaStorage storage, Hudi1TimelineFile file) throws IOException {
    return storage.read(file.file().location());
  }
}
