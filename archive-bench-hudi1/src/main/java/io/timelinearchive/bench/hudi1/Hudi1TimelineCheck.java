package io.timelinearchive.bench.hudi1;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.CleanerUtils;

/**
 * A table as Apache Hudi 1.0.1 reads it, in a process of its own: {@code TABLE}. Loads its active
 * and archived timelines with Hudi's own classes, decodes every completed instant's content (commit
 * metadata, clean plan and clean metadata) and checks that the instant times inside refer to the
 * table's own instants: a write stat's file carries its commit's time, its previous commit is an
 * earlier commit of the table, a clean's earliest commit to retain is an earlier commit. Prints one
 * {@code ACTIVE requested completion action state} line per instant of the active timeline, {@code
 * HUDI1-ACTIVE n}, {@code HUDI1-ARCHIVED n} and {@code BAD ...} for each problem found; exits 1 if
 * there was one.
 */
public final class Hudi1TimelineCheck {
  private Hudi1TimelineCheck() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: TABLE");
    }
    HoodieTableMetaClient metaClient =
        Hudi1.metaClient(Hudi1.basePath(args[0]), new Configuration());
    List<String> bad = check(metaClient);
    bad.forEach(b -> System.out.println("BAD " + b));
    System.exit(bad.isEmpty() ? 0 : 1);
  }

  private static List<String> check(HoodieTableMetaClient metaClient) throws IOException {
    List<String> bad = new ArrayList<>();
    HoodieActiveTimeline active = metaClient.getActiveTimeline();
    HoodieTimeline archived = metaClient.getArchivedTimeline();
    Set<String> commits = new HashSet<>();
    for (HoodieTimeline t : List.of(archived, active)) {
      t.getCommitsTimeline().filterCompletedInstants().getInstants().stream()
          .map(HoodieInstant::requestedTime)
          .forEach(commits::add);
    }
    String previous = null;
    for (HoodieInstant instant : active.getInstants()) {
      System.out.println(
          "ACTIVE "
              + instant.requestedTime()
              + " "
              + (instant.getCompletionTime() == null ? "-" : instant.getCompletionTime())
              + " "
              + instant.getAction()
              + " "
              + instant.getState());
      if (previous != null && previous.compareTo(instant.requestedTime()) >= 0) {
        bad.add("instants out of order: " + previous + " then " + instant.requestedTime());
      }
      previous = instant.requestedTime();
      if (!instant.isCompleted()) {
        continue;
      }
      String time = instant.requestedTime();
      if (instant.getCompletionTime().compareTo(time) <= 0) {
        bad.add(instant + " completes at " + instant.getCompletionTime() + ", not after " + time);
      }
      byte[] content = active.getInstantDetails(instant).orElse(new byte[0]);
      switch (instant.getAction()) {
        case HoodieTimeline.COMMIT_ACTION -> {
          HoodieCommitMetadata metadata =
              metaClient
                  .getCommitMetadataSerDe()
                  .deserialize(instant, content, HoodieCommitMetadata.class);
          if (metadata.getWriteStats().isEmpty()) {
            bad.add(instant + " has no write stats");
          }
          for (HoodieWriteStat stat : metadata.getWriteStats()) {
            String fileTime = FSUtils.getCommitTime(stat.getPath());
            if (!fileTime.equals(time)) {
              bad.add(instant + " wrote " + stat.getPath() + " of another commit, " + fileTime);
            }
            String prev = stat.getPrevCommit();
            if (prev != null
                && !prev.equals("null")
                && (!commits.contains(prev) || prev.compareTo(time) >= 0)) {
              bad.add(instant + "'s previous commit " + prev + " is no earlier commit");
            }
          }
        }
        case HoodieTimeline.CLEAN_ACTION -> {
          HoodieCleanMetadata metadata = CleanerUtils.getCleanerMetadata(metaClient, content);
          checkRetained(bad, instant, metadata.getEarliestCommitToRetain(), commits);
          HoodieCleanerPlan plan =
              CleanerUtils.getCleanerPlan(
                  metaClient, metaClient.getInstantGenerator().getCleanRequestedInstant(time));
          if (plan.getEarliestInstantToRetain() != null) {
            checkRetained(bad, instant, plan.getEarliestInstantToRetain().getTimestamp(), commits);
          }
        }
        default -> bad.add(instant + ": an action the bench's tables do not have");
      }
    }
    System.out.println("HUDI1-ACTIVE " + active.countInstants());
    System.out.println("HUDI1-ARCHIVED " + archived.countInstants());
    return bad;
  }

  private static void checkRetained(
      List<String> bad, HoodieInstant clean, String retained, Set<String> commits) {
    if (retained != null
        && !retained.isEmpty()
        && (!commits.contains(retained) || retained.compareTo(clean.requestedTime()) >= 0)) {
      bad.add(clean + " retains from " + retained + ", no earlier commit");
    }
  }
}
