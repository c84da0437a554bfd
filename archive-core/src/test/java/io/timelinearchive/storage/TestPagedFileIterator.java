package io.timelinearchive.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class TestPagedFileIterator {
  private static final StorageLocation FOLDER = StorageLocation.of("memory://v/folder");

  /** Serves the given pages, counting the fetches. */
  private static final class Pages extends PagedFileIterator {
    private final Deque<List<FileEntry>> pages;
    private int fetches;
    private boolean endSeen;

    Pages(List<List<FileEntry>> pages) {
      this.pages = new ArrayDeque<>(pages);
    }

    @Override
    protected List<FileEntry> nextPage() {
      assertThat(endSeen).as("asked for a page after the end").isFalse();
      fetches++;
      List<FileEntry> page = pages.poll();
      endSeen = page == null;
      return page;
    }
  }

  private static FileEntry entry(String name) {
    return new FileEntry(FOLDER.resolve(name), 1, Instant.EPOCH);
  }

  @Test
  void fetchesTheNextPageOnlyWhenTheLastIsUsedUp() throws Exception {
    Pages pages = new Pages(List.of(List.of(entry("a"), entry("b")), List.of(entry("c"))));

    assertThat(pages.hasNext()).isTrue();
    assertThat(pages.hasNext()).isTrue();
    assertThat(pages.fetches).isEqualTo(1);
    assertThat(pages.next().name()).isEqualTo("a");
    assertThat(pages.next().name()).isEqualTo("b");
    assertThat(pages.fetches).isEqualTo(1);
    assertThat(pages.next().name()).isEqualTo("c");
    assertThat(pages.fetches).isEqualTo(2);

    assertThat(pages.hasNext()).isFalse();
    assertThat(pages.hasNext()).isFalse();
    assertThat(pages.fetches).isEqualTo(3);
    assertThatThrownBy(pages::next).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void skipsEmptyPages() throws Exception {
    Pages pages =
        new Pages(List.of(List.of(), List.of(entry("a")), List.of(), List.of(), List.of()));

    assertThat(pages.toList()).extracting(FileEntry::name).containsExactly("a");
  }

  @Test
  void anEmptyListingFetchesOnce() throws Exception {
    Pages pages = new Pages(List.of());

    assertThat(pages.hasNext()).isFalse();
    assertThatThrownBy(pages::next).isInstanceOf(NoSuchElementException.class);
    assertThat(pages.fetches).isEqualTo(1);
  }

  @Test
  void aFailedFetchIsThrownFromHasNextAndNext() {
    PagedFileIterator failing =
        new PagedFileIterator() {
          @Override
          protected List<FileEntry> nextPage() throws IOException {
            throw new IOException("page refused");
          }
        };

    assertThatThrownBy(failing::hasNext).hasMessage("page refused");
    assertThatThrownBy(failing::next).hasMessage("page refused");
  }
}
