/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the main source files of lock-core stay small (issue 47): one job per type,
 * about 250 lines at most. Lines are counted as {@code wc -l} counts them: the newline
 * characters in the file.
 */
class SourceFileSizeTests {

	private static final Path MAIN_SOURCES = Path.of("src/main/java");

	private static final int MAX_LINES = 400;

	private static final int LONG_FILE_LINES = 250;

	private static final int MAX_LONG_FILES = 8;

	@Test
	void noMainSourceFileIsLongerThan400Lines() throws IOException {
		Map<String, Long> tooLong = filesLongerThan(MAX_LINES);
		assertThat(tooLong).as("main source files over %d lines (file=lines): %s", MAX_LINES, tooLong).isEmpty();
	}

	@Test
	void atMostEightMainSourceFilesAreLongerThan250Lines() throws IOException {
		Map<String, Long> longFiles = filesLongerThan(LONG_FILE_LINES);
		assertThat(longFiles.size())
			.as("main source files over %d lines, at most %d allowed (file=lines): %s", LONG_FILE_LINES, MAX_LONG_FILES,
					longFiles)
			.isLessThanOrEqualTo(MAX_LONG_FILES);
	}

	private static Map<String, Long> filesLongerThan(int lines) throws IOException {
		assertThat(MAIN_SOURCES).as("the main sources, relative to the module directory").isDirectory();
		try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
			return files.filter((file) -> file.toString().endsWith(".java"))
				.collect(Collectors.toMap((file) -> MAIN_SOURCES.relativize(file).toString(),
						SourceFileSizeTests::lineCount, Long::sum, TreeMap::new))
				.entrySet()
				.stream()
				.filter((entry) -> entry.getValue() > lines)
				.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, TreeMap::new));
		}
	}

	private static long lineCount(Path file) {
		try {
			byte[] content = Files.readAllBytes(file);
			long newlines = 0;
			for (byte b : content) {
				if (b == '\n') {
					newlines++;
				}
			}
			return newlines;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file, ex);
		}
	}

}
