package io.timelinearchive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.lsm.Hudi1Actions;
import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.lsm.Hudi1InstantContent;
import io.timelinearchive.lsm.LsmFileSummary;
import io.timelinearchive.lsm.LsmHistory;
import io.timelinearchive.lsm.LsmHistoryInstant;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code show active} and {@code show archived} on a Hudi 1.x table: its active timeline in {@code
 * .hoodie/timeline/} and its LSM history. Lines are those of Hudi 0.x tables, {@code <requested
 * time> <action> <state>}, with the completion time after a completed instant's.
 */
final class Hudi1Show {
  private Hudi1Show() {}

  static void active(
      MetaStorage storage,
      HoodieTable table,
      InstantFilter filter,
      boolean json,
      PrintWriter out,
      PrintWriter err)
      throws IOException {
    Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, table);
    List<Hudi1Instant> matching =
        filter.matching(active.instants(), Hudi1Instant::action, Hudi1Instant::state);
    List<Hudi1Instant> listed = filter.limited(matching);
    if (json) {
      Map<String, Object> doc = Reports.document(table.base().toString());
      doc.put("instantFiles", listed.stream().map(Hudi1Show::instant).toList());
      doc.put("instants", instantCount(listed));
      doc.put("instantFilesMatched", matching.size());
      doc.put(
          "malformed",
          active.malformed().stream()
              .map(m -> Reports.malformed(m.fileName(), m.reason()))
              .toList());
      Output.json(out, doc);
      return;
    }
    listed.forEach(i -> out.println(line(i)));
    out.println(ShowCommand.count(listed, matching) + " in the active timeline");
    out.flush();
    for (var m : active.malformed()) {
      err.println(
          "warning: not an instant, left alone: "
              + active.folder().resolve(m.fileName())
              + " ("
              + m.reason()
              + ")");
    }
    err.flush();
  }

  static void archived(
      MetaStorage storage,
      HoodieTable table,
      ArchiveReadOptions options,
      InstantFilter filter,
      boolean json,
      PrintWriter out)
      throws IOException {
    LsmHistory history = LsmHistory.load(storage, table, options);
    List<LsmHistoryInstant> matching =
        filter.matching(history.instants(), LsmHistoryInstant::action, r -> r.instant().state());
    List<LsmHistoryInstant> listed = filter.limited(matching);
    if (json) {
      Map<String, Object> doc = Reports.document(table.base().toString());
      List<Object> instants = new ArrayList<>();
      for (LsmHistoryInstant row : listed) {
        Map<String, Object> m = instant(row.instant());
        m.put("historyFile", row.file().fileName());
        if (options.details()) {
          m.putAll(details(row));
        }
        instants.add(m);
      }
      doc.put("instantFiles", instants);
      doc.put("instants", listed.size());
      doc.put("instantFilesMatched", matching.size());
      doc.put(
          "manifestVersion",
          history.snapshot().version().isPresent()
              ? history.snapshot().version().getAsInt()
              : null);
      doc.put("historyFiles", history.files().stream().map(Hudi1Show::historyFile).toList());
      Output.json(out, doc);
      return;
    }
    for (LsmHistoryInstant row : listed) {
      out.println(line(row.instant()));
      if (options.details()) {
        out.println("  " + Output.compactJson(details(row)));
      }
    }
    out.println(ShowCommand.count(listed, matching) + " in the history");
  }

  static String line(Hudi1Instant i) {
    return i.requestedTime()
        + " "
        + i.action()
        + " "
        + i.state()
        + i.completionTime().map(c -> " " + c).orElse("");
  }

  private static Map<String, Object> instant(Hudi1Instant i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("time", i.requestedTime());
    m.put("action", i.action());
    m.put("state", i.state().name());
    m.put("completionTime", i.completionTime().orElse(null));
    return m;
  }

  /** Instants, not instant files: one per (requested time, action it completes as). */
  private static long instantCount(List<Hudi1Instant> files) {
    return files.stream()
        .map(i -> i.requestedTime() + " " + Hudi1Actions.completedAs(i.action()))
        .distinct()
        .count();
  }

  private static Map<String, Object> details(LsmHistoryInstant row) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metadataBytes", row.metadata().map(ByteBuffer::remaining).orElse(null));
    m.put("planBytes", row.plan().map(ByteBuffer::remaining).orElse(null));
    m.put("version", row.version());
    m.put("metadata", decoded(row.metadataBytes()));
    m.put("plan", decoded(row.planBytes()));
    return m;
  }

  private static ObjectNode decoded(Optional<byte[]> bytes) {
    return bytes
        .flatMap(Hudi1InstantContent::record)
        .map(r -> AvroJson.record(r, Set.of()))
        .orElse(null);
  }

  private static Map<String, Object> historyFile(LsmFileSummary f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", f.name().fileName());
    m.put("layer", f.name().layer());
    m.put("bytes", f.length());
    m.put("rows", f.rows());
    return m;
  }
}
