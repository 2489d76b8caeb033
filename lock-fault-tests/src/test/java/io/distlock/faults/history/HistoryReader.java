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

package io.distlock.faults.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.distlock.faults.history.History.Attempt;
import io.distlock.faults.history.History.LostNotice;
import io.distlock.faults.history.History.MultiHold;
import io.distlock.faults.history.History.Release;
import io.distlock.faults.history.History.Section;
import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History.Window;

/**
 * Builds a {@link History} from what a scenario left behind: the JSON-lines history file
 * of each client JVM and the storage's operation log.
 *
 * <p>
 * Client lines, one event each, with field {@code t} naming it: {@code attempt} (client
 * {@code c}, key {@code k}, {@code mode}, {@code wait}, {@code start}, {@code end} in
 * nanoseconds, {@code outcome}), {@code enter} (holder {@code h}, {@code c}, {@code k},
 * token {@code tok}, storage sequence {@code seq}), {@code exit} ({@code h},
 * {@code seq}), {@code release} ({@code h}, {@code outcome}: released, mismatch or
 * unconfirmed) and {@code lost} ({@code c}, {@code k}, {@code tok}). An {@code enter} of
 * one key of a multi-key acquisition also has its group {@code g}, and one of a key's
 * permits its limit {@code permits}, and one of a read hold {@code read: true}; a
 * {@code multi} event ({@code g}, {@code c}, the {@code keys} asked for as {@code k0,k1},
 * the keys the handle {@code held} as {@code k0=12,k1=13}) precedes the entries of a
 * multi-key acquisition. Other events are kept for people, not checked. A line that does
 * not parse, such as the last one of a killed process, is skipped and counted.
 *
 * <p>
 * Storage lines: {@code seq micros op key holder token accepted value duplicate expected
 * written}, space-separated; a {@code kill} mark names the killed client as its holder.
 */
public final class HistoryReader {

	private final Map<String, Map<String, String>> entries = new LinkedHashMap<>();

	private final Map<String, Long> exits = new HashMap<>();

	private final Map<String, Release> releases = new HashMap<>();

	private final List<Attempt> attempts = new ArrayList<>();

	private final List<LostNotice> lostNotices = new ArrayList<>();

	private final List<StorageOp> storageOps = new ArrayList<>();

	private final Map<String, Long> killed = new HashMap<>();

	private final List<Window> frozen = new ArrayList<>();

	private final List<String> leftLockKeys = new ArrayList<>();

	private final List<MultiHold> multiHolds = new ArrayList<>();

	private int skippedLines;

	/**
	 * Read the history lines of one client JVM.
	 * @param lines the lines of its history file
	 * @return this reader
	 */
	public HistoryReader client(List<String> lines) {
		for (String line : lines) {
			if (line.isBlank()) {
				continue;
			}
			Map<String, String> event;
			try {
				event = JsonLines.parse(line);
			}
			catch (IllegalArgumentException ex) {
				this.skippedLines++;
				continue;
			}
			String type = event.getOrDefault("t", "");
			switch (type) {
				case "attempt" -> this.attempts.add(new Attempt(event.get("c"), event.get("k"), event.get("mode"),
						number(event, "wait"), number(event, "start"), number(event, "end"), event.get("outcome")));
				case "enter" -> this.entries.put(event.get("h"), event);
				case "exit" -> this.exits.put(event.get("h"), number(event, "seq"));
				case "release" ->
					this.releases.put(event.get("h"), Release.valueOf(event.get("outcome").toUpperCase(Locale.ROOT)));
				case "lost" ->
					this.lostNotices.add(new LostNotice(event.get("c"), event.get("k"), number(event, "tok")));
				case "multi" -> this.multiHolds.add(multiHold(event));
				case "stall" ->
					this.frozen.add(new Window(event.get("c"), number(event, "start"), number(event, "end")));
				default -> {
					// Kept for people reading the file.
				}
			}
		}
		return this;
	}

	/**
	 * Read the storage's operation log.
	 * @param lines its lines, in any order
	 * @return this reader
	 */
	public HistoryReader storage(List<String> lines) {
		for (String line : lines) {
			String[] fields = line.split(" ", -1);
			if (fields.length != 11) {
				throw new IllegalArgumentException("Not a storage log line: " + line);
			}
			StorageOp op = new StorageOp(Long.parseLong(fields[0]), Long.parseLong(fields[1]), fields[2], fields[3],
					fields[4], parseOr(fields[5]), "1".equals(fields[6]), parseOr(fields[7]), "1".equals(fields[8]),
					parseOr(fields[9]), parseOr(fields[10]));
			this.storageOps.add(op);
			if ("kill".equals(op.op())) {
				this.killed.merge(op.holder(), op.seq(), Math::min);
			}
		}
		return this;
	}

	/**
	 * Add a window in which the test froze a client JVM.
	 * @param pause the window
	 * @return this reader
	 */
	public HistoryReader pause(Window pause) {
		this.frozen.add(pause);
		return this;
	}

	/**
	 * Add the lock keys found in Redis after the run.
	 * @param keys the keys
	 * @return this reader
	 */
	public HistoryReader leftLockKeys(List<String> keys) {
		this.leftLockKeys.addAll(keys);
		return this;
	}

	/**
	 * Return how many client lines could not be parsed.
	 * @return the number of skipped lines
	 */
	public int skippedLines() {
		return this.skippedLines;
	}

	/**
	 * Return the history read so far.
	 * @return the history
	 */
	public History history() {
		List<Section> sections = new ArrayList<>(this.entries.size());
		this.entries.forEach((holder, event) -> sections
			.add(new Section(holder, event.get("c"), event.get("k"), number(event, "tok"), number(event, "seq"),
					this.exits.getOrDefault(holder, -1L), this.releases.getOrDefault(holder, Release.NONE),
					event.getOrDefault("g", ""), Integer.parseInt(event.getOrDefault("permits", "1")),
					Boolean.parseBoolean(event.getOrDefault("read", "false")))));
		return new History(sections, this.storageOps, this.attempts, this.lostNotices, this.killed, this.frozen,
				this.leftLockKeys, this.multiHolds);
	}

	private static MultiHold multiHold(Map<String, String> event) {
		Set<String> keys = new LinkedHashSet<>(List.of(event.getOrDefault("keys", "").split(",")));
		keys.remove("");
		Map<String, Long> tokens = new LinkedHashMap<>();
		for (String held : event.getOrDefault("held", "").split(",")) {
			int equals = held.lastIndexOf('=');
			if (equals > 0) {
				tokens.put(held.substring(0, equals), Long.parseLong(held.substring(equals + 1)));
			}
		}
		return new MultiHold(event.get("g"), event.get("c"), keys, tokens);
	}

	private static long number(Map<String, String> event, String name) {
		String value = event.get(name);
		if (value == null) {
			throw new IllegalArgumentException("Missing '" + name + "' in " + event);
		}
		return Long.parseLong(value);
	}

	private static long parseOr(String field) {
		return field.isEmpty() ? 0 : Long.parseLong(field);
	}

}
