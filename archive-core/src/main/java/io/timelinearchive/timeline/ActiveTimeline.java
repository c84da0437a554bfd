package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The instant files of {@code .hoodie/}, loaded with one listing of its direct children (never
 * recursive: {@code .hoodie/metadata/} can be a whole table).
 *
 * @param files instant state files, sorted by {@link TimelineInstant#ORDER}
 * @param malformed names that look like instants but cannot be read; reported and left alone
 */
public record ActiveTimeline(
    StorageLocation metaFolder,
    List<TimelineFile> files,
    List<InstantFileName.Result.Malformed> malformed) {

  public ActiveTimeline {
    requireNonNull(metaFolder, "metaFolder is null");
    files = List.copyOf(files);
    malformed = List.copyOf(malformed);
  }

  public static ActiveTimeline load(MetaStorage storage, StorageLocation metaFolder)
      throws IOException {
    List<TimelineFile> files = new ArrayList<>();
    List<InstantFileName.Result.Malformed> malformed = new ArrayList<>();
    FileIterator listing = storage.list(metaFolder);
    while (listing.hasNext()) {
      FileEntry entry = listing.next();
      InstantFileName.Result result = InstantFileName.parse(entry.name());
      if (result instanceof InstantFileName.Result.Parsed p) {
        files.add(new TimelineFile(p.instant(), entry));
      } else if (result instanceof InstantFileName.Result.Malformed m) {
        malformed.add(m);
      }
    }
    files.sort(Comparator.comparing(TimelineFile::instant));
    return new ActiveTimeline(metaFolder, files, malformed);
  }

  public Timeline timeline() {
    return Timeline.of(files.stream().map(TimelineFile::instant).toList());
  }

  /**
   * The files of {@code states}, which are this timeline's: both lists are in timeline order, so
   * one walk pairs them. A state can have two files (Hudi reads {@code T.commit.inflight} as {@code
   * T.inflight}): both are given.
   *
   * @param states state files of this timeline, sorted
   */
  public List<TimelineFile> filesOf(List<TimelineInstant> states) {
    List<TimelineFile> selected = new ArrayList<>(states.size());
    int at = 0;
    for (TimelineInstant wanted : states) {
      while (files.get(at).instant().compareTo(wanted) < 0) {
        at++;
      }
      while (at < files.size() && files.get(at).instant().equals(wanted)) {
        selected.add(files.get(at++));
      }
    }
    return selected;
  }
}
