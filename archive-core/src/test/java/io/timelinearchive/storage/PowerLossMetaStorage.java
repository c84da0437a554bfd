package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A disk that can lose power, for the crash trials. It records every mutation made through it and
 * which of them the local backend's durability contract (see {@code LocalMetaStorage}) makes
 * durable: content is forced before a create or an append returns; a folder's entry changes are
 * durable once the folder is forced, which a create or a new log in it, {@link #syncDeletes} on it,
 * the first delete or create in another folder, any append and {@link #close} do. Everything else
 * (deletes not forced yet) a power loss may undo: {@link #powerLoss} undoes the chosen ones on the
 * store below, as the disk shows them after the restart, and {@link #losses} names the subsets the
 * contract allows.
 */
public final class PowerLossMetaStorage extends ForwardingMetaStorage {
  /** Which of the unforced deletes of one folder a power loss may undo. */
  public enum Order {
    /** Any subset: all POSIX promises without a folder force. */
    ANY,
    /** Only the newest ones: file systems that journal directory operations in order (ext4). */
    NEWEST
  }

  /** A delete not yet made durable, with what undoing it restores. */
  public record Unforced(StorageLocation file, byte[] content) {
    public Unforced {
      requireNonNull(file, "file is null");
      requireNonNull(content, "content is null");
    }

    @Override
    public String toString() {
      return "delete " + file;
    }
  }

  private final List<String> mutations = new ArrayList<>();
  private final List<Unforced> unforced = new ArrayList<>();

  public PowerLossMetaStorage(MetaStorage delegate) {
    super(delegate);
  }

  /** Every mutation made through this store, in order, each marked durable or not when made. */
  public synchronized List<String> mutations() {
    return List.copyOf(mutations);
  }

  /** The deletes a power loss now could undo, oldest first. */
  public synchronized List<Unforced> unforced() {
    return List.copyOf(unforced);
  }

  /**
   * The sets of unforced deletes (indexes into {@link #unforced}) a power loss now may undo under
   * {@code order}: all of them when there are at most {@code limit}, else the empty set, the whole
   * set and random others drawn from {@code random}, {@code limit} in all.
   */
  public synchronized List<Set<Integer>> losses(Order order, int limit, Random random) {
    Map<StorageLocation, List<Integer>> byFolder = new LinkedHashMap<>();
    for (int i = 0; i < unforced.size(); i++) {
      byFolder.computeIfAbsent(unforced.get(i).file().parent(), f -> new ArrayList<>()).add(i);
    }
    List<List<Integer>> folders = List.copyOf(byFolder.values());
    // Per folder, the choices: any subset (a bit each), or how many of the newest.
    double count = 1;
    for (List<Integer> f : folders) {
      count *= order == Order.ANY ? Math.pow(2, f.size()) : f.size() + 1;
    }
    List<Set<Integer>> losses = new ArrayList<>();
    if (count <= limit) {
      for (long n = 0; n < (long) count; n++) {
        losses.add(decode(order, folders, n));
      }
      return losses;
    }
    Set<Set<Integer>> drawn = new HashSet<>();
    losses.add(Set.of());
    losses.add(allOf(folders));
    drawn.addAll(losses);
    while (losses.size() < limit) {
      Set<Integer> loss = new HashSet<>();
      for (List<Integer> f : folders) {
        if (order == Order.ANY) {
          f.stream().filter(i -> random.nextBoolean()).forEach(loss::add);
        } else {
          loss.addAll(f.subList(f.size() - random.nextInt(f.size() + 1), f.size()));
        }
      }
      if (drawn.add(loss)) {
        losses.add(Set.copyOf(loss));
      }
    }
    return losses;
  }

  private static Set<Integer> decode(Order order, List<List<Integer>> folders, long n) {
    Set<Integer> loss = new HashSet<>();
    for (List<Integer> f : folders) {
      if (order == Order.ANY) {
        for (int bit = 0; bit < f.size(); bit++, n >>= 1) {
          if ((n & 1) == 1) {
            loss.add(f.get(bit));
          }
        }
      } else {
        int newest = (int) (n % (f.size() + 1));
        n /= f.size() + 1;
        loss.addAll(f.subList(f.size() - newest, f.size()));
      }
    }
    return Set.copyOf(loss);
  }

  private static Set<Integer> allOf(List<List<Integer>> folders) {
    Set<Integer> all = new HashSet<>();
    folders.forEach(all::addAll);
    return Set.copyOf(all);
  }

  /** The power goes: the unforced deletes at {@code undone} come back, and nothing else changes. */
  public synchronized void powerLoss(Set<Integer> undone) throws IOException {
    for (int i : undone) {
      Unforced d = unforced.get(i);
      try {
        delegate.createExclusive(d.file(), d.content());
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException(d.file() + " was created again after its delete", e);
      }
      mutations.add("power loss undid " + d);
    }
    unforced.clear();
  }

  @Override
  public synchronized void createExclusive(StorageLocation file, byte[] content)
      throws IOException {
    forceAllBut(Set.of(file.parent()));
    delegate.createExclusive(file, content);
    force(file.parent());
    mutations.add("create " + file + " (durable)");
  }

  @Override
  public synchronized Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    forceAllBut(Set.of(file.parent()));
    boolean created = !exists(file);
    Optional<AppendableLog> log = delegate.openLog(file);
    if (log.isPresent() && created) {
      force(file.parent());
      mutations.add("create log " + file + " (durable)");
    }
    return log.map(
        l ->
            new ForwardingAppendableLog(l) {
              @Override
              public void append(byte[] bytes) throws IOException {
                synchronized (PowerLossMetaStorage.this) {
                  forceAllBut(Set.of(file.parent()));
                  super.append(bytes);
                  mutations.add("append " + bytes.length + " bytes to " + file + " (durable)");
                }
              }
            });
  }

  @Override
  public synchronized void deleteAll(Collection<StorageLocation> files) throws IOException {
    if (files.isEmpty()) {
      return; // changes nothing, forces nothing: as the local backend
    }
    Set<StorageLocation> folders = new HashSet<>();
    files.forEach(f -> folders.add(f.parent()));
    forceAllBut(folders);
    List<Unforced> deleting = new ArrayList<>();
    for (StorageLocation file : files) {
      try {
        deleting.add(new Unforced(file, delegate.read(file)));
      } catch (NoSuchFileException e) {
        // nothing to bring back
      }
    }
    delegate.deleteAll(files);
    unforced.addAll(deleting);
    deleting.forEach(d -> mutations.add(d + " (not forced)"));
  }

  @Override
  public synchronized void syncDeletes(StorageLocation folder) throws IOException {
    force(folder);
  }

  /** As the local backend's close: forces every folder. Leaves the store below open. */
  @Override
  public synchronized void close() {
    forceAllBut(Set.of());
  }

  private boolean exists(StorageLocation file) throws IOException {
    try {
      delegate.read(file);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  private void force(StorageLocation folder) {
    if (unforced.removeIf(d -> d.file().parent().equals(folder))) {
      mutations.add("force " + folder);
    }
  }

  private void forceAllBut(Set<StorageLocation> next) {
    unforced.stream()
        .map(d -> d.file().parent())
        .distinct()
        .filter(f -> !next.contains(f))
        .toList()
        .forEach(this::force);
  }
}
