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

package io.distlock.faults;

import java.util.List;
import java.util.Optional;

import io.distlock.faults.history.History.Section;
import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History;

/**
 * Questions the scenario tests ask of a history beyond what the checker reports.
 */
final class ScenarioAssertions {

	private ScenarioAssertions() {
	}

	/**
	 * Return the storage marks of the given kind, in order.
	 * @param history the history
	 * @param kind the mark, such as {@code kill}
	 * @return the marks
	 */
	static List<StorageOp> marks(History history, String kind) {
		return history.storageOps()
			.stream()
			.filter((op) -> op.op().equals(kind))
			.sorted((a, b) -> Long.compare(a.seq(), b.seq()))
			.toList();
	}

	/**
	 * Return the first entry into a section on the key by a client other than the given
	 * one after the given point of the storage order.
	 * @param history the history
	 * @param key the lock key
	 * @param excludedClient the client whose entries do not count
	 * @param afterSeq the point in the storage order
	 * @return the entry, if any
	 */
	static Optional<StorageOp> firstEntryAfter(History history, String key, String excludedClient, long afterSeq) {
		return history.storageOps()
			.stream()
			.filter((op) -> "enter".equals(op.op()) && op.key().equals(key) && op.seq() > afterSeq
					&& !op.holder().startsWith(excludedClient + "-"))
			.min((a, b) -> Long.compare(a.seq(), b.seq()));
	}

	/**
	 * Return the sections of one client.
	 * @param history the history
	 * @param client the client id
	 * @return its sections
	 */
	static List<Section> sectionsOf(History history, String client) {
		return history.sections().stream().filter((section) -> section.client().equals(client)).toList();
	}

	/**
	 * Return whether the library told the holder of the section that its lock was lost.
	 * @param history the history
	 * @param section the section
	 * @return whether a lost notice or a mismatched release was recorded for it
	 */
	static boolean toldLost(History history, Section section) {
		return section.release() == History.Release.MISMATCH || history.lostNotices()
			.stream()
			.anyMatch((notice) -> notice.key().equals(section.key()) && notice.token() == section.token());
	}

}
