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

package io.distlock.faults.client;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.distlock.faults.history.JsonLines;

/**
 * Writes a client's history as JSON lines, each flushed at once, so that a client killed
 * with SIGKILL leaves everything it recorded before (at most its last line cut short).
 */
public final class HistoryWriter implements AutoCloseable {

	private final Writer out;

	private HistoryWriter(Writer out) {
		this.out = out;
	}

	/**
	 * Create the history file, replacing any previous one.
	 * @param file the file
	 * @return the writer
	 */
	public static HistoryWriter create(Path file) {
		try {
			return new HistoryWriter(new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Write one event.
	 * @param type the event type, field {@code t}
	 * @param namesAndValues field names and values, alternating
	 */
	public void event(String type, Object... namesAndValues) {
		Map<String, Object> fields = new LinkedHashMap<>();
		fields.put("t", type);
		for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
			fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
		}
		String line = JsonLines.format(fields);
		synchronized (this) {
			try {
				this.out.write(line);
				this.out.write('\n');
				this.out.flush();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	@Override
	public synchronized void close() {
		try {
			this.out.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
