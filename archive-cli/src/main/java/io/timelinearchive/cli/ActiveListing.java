package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code show active} reports: the instant files of {@code .hoodie/} from one listing of its
 * direct children, and the names there that are broken instant file names.
 *
 * @param instants sorted by {@link TimelineInstant#ORDER}
 * @param malformed by name
 */
record ActiveListing(List<TimelineInstant> instants, List<Malformed> malformed) {

  record Malformed(String name, String reason) {
    Malformed {
      requireNonNull(name, "name is null");
      requireNonNull(reason, "reason is null");
    }
  }

  ActiveListing {
    instants = List.copyOf(instants);
    malformed = List.copyOf(malformed);
  }

  static ActiveListing load(MetaStorage storage, StorageLocation metaFolder) throws IOException {
    List<TimelineInstant> instants = new ArrayList<>();
    List<Malformed> malformed = new ArrayList<>();
    FileIterator listing = storage.list(metaFolder);
    while (listing.hasNext()) {
      FileEntry entry = listing.next();
      InstantFileName.Result result = InstantFileName.parse(entry.name());
      if (result instanceof InstantFileName.Result.Parsed p) {
        instants.add(p.instant());
      } else if (result instanceof InstantFileName.Result.Malformed m) {
        malformed.add(new Malformed(m.fileName(), m.reason()));
      } else {
        misnamedInstant(entry.name())
            .ifPresent(why -> malformed.add(new Malformed(entry.name(), why)));
      }
    }
    instants.sort(TimelineInstant.ORDER);
    return new ActiveListing(instants, malformed);
  }

  /**
   * Why a name that is not an instant by Hudi's pattern still looks like a damaged instant file:
   * its suffix is an instant's ({@code .commit}, {@code .clean.requested}, {@code .inflight}, …)
   * but the time in front is not a number. Hudi skips such files silently; a user wants to know.
   */
  static Optional<String> misnamedInstant(String name) {
    int dot = name.indexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    String time = name.substring(0, dot);
    String[] suffix = name.substring(dot + 1).split("\\.", -1);
    boolean instantSuffix =
        switch (suffix.length) {
          case 1 -> suffix[0].equals("inflight") || Action.fromName(suffix[0]).isPresent();
          case 2 ->
              Action.fromName(suffix[0]).isPresent()
                  && (suffix[1].equals("requested") || suffix[1].equals("inflight"));
          default -> false;
        };
    return instantSuffix
        ? Optional.of("instant time '" + time + "' is not a number")
        : Optional.empty();
  }
}
