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

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.distlock.faults.history.History.MultiHold;
import io.distlock.faults.history.History.Release;
import io.distlock.faults.history.History.Section;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link HistoryReader} and {@link JsonLines}.
 */
class HistoryReaderTests {

	@Test
	void jsonLinesRoundTripEscapes() {
		String line = JsonLines.format(Map.of("t", "a \"quoted\" \\ value\n\u0001", "n", 12L, "b", true));
		assertThat(line).doesNotContain("\n");
		assertThat(JsonLines.parse(line))
			.containsAllEntriesOf(Map.of("t", "a \"quoted\" \\ value\n\u0001", "n", "12", "b", "true"));
	}

	@Test
	void truncatedJsonLineIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonLines.parse("{\"t\":\"enter\",\"h\":\"c0-w"));
		assertThatIllegalArgumentException().isThrownBy(() -> JsonLines.parse("{\"t\":\"enter\"} trailing"));
	}

	@Test
	void sectionsAreJoinedByHolderAndTheKilledClientsFoundInTheStorageLog() {
		HistoryReader reader = new HistoryReader();
		reader.client(List.of(
				"{\"t\":\"attempt\",\"c\":\"c0\",\"k\":\"k1\",\"mode\":\"template\",\"wait\":500,\"start\":1,\"end\":9,\"outcome\":\"acquired\"}",
				"{\"t\":\"enter\",\"h\":\"c0-w0-0\",\"c\":\"c0\",\"k\":\"k1\",\"tok\":77,\"seq\":3}",
				"{\"t\":\"exit\",\"h\":\"c0-w0-0\",\"seq\":8}",
				"{\"t\":\"release\",\"h\":\"c0-w0-0\",\"outcome\":\"mismatch\"}",
				"{\"t\":\"lost\",\"c\":\"c0\",\"k\":\"k1\",\"tok\":77}",
				"{\"t\":\"stall\",\"c\":\"c0\",\"start\":5,\"end\":50}",
				"{\"t\":\"enter\",\"h\":\"c0-w1-0\",\"c\":\"c0\",\"k\":\"k2\",\"tok\":78,\"seq\":9}", "{\"t\":\"ex"));
		reader.storage(
				List.of("12 1700000000000000 kill - c0 0 1 0 0  ", "4 1700000000000000 write k1 c0-w0-0 77 1 3 0 3 4"));
		History history = reader.history();
		assertThat(reader.skippedLines()).isOne();
		assertThat(history.sections()).containsExactly(new Section("c0-w0-0", "c0", "k1", 77, 3, 8, Release.MISMATCH),
				new Section("c0-w1-0", "c0", "k2", 78, 9, -1, Release.NONE));
		assertThat(history.killed()).containsEntry("c0", 12L);
		assertThat(history.attempts()).singleElement().satisfies((attempt) -> {
			assertThat(attempt.waitedNanos()).isEqualTo(8);
			assertThat(attempt.outcome()).isEqualTo("acquired");
		});
		assertThat(history.lostNotices()).hasSize(1);
		assertThat(history.frozen()).hasSize(1);
		assertThat(history.storageOps()).hasSize(2)
			.anySatisfy((op) -> assertThat(op.fenced() && op.written() == 4 && op.expected() == 3).isTrue());
	}

	@Test
	void multiKeyHoldsAndPermitSectionsKeepTheirGroupAndLimit() {
		HistoryReader reader = new HistoryReader();
		reader.client(List.of(
				"{\"t\":\"multi\",\"g\":\"c0-w0-1\",\"c\":\"c0\",\"keys\":\"k2,k0\",\"held\":\"k0=12,k2=13\"}",
				"{\"t\":\"enter\",\"h\":\"c0-w0-1:k0\",\"c\":\"c0\",\"k\":\"k0\",\"tok\":12,\"seq\":3,\"g\":\"c0-w0-1\"}",
				"{\"t\":\"enter\",\"h\":\"c0-w1-0\",\"c\":\"c0\",\"k\":\"k1\",\"tok\":5,\"seq\":4,\"permits\":3}"));
		History history = reader.history();
		assertThat(history.multiHolds())
			.containsExactly(new MultiHold("c0-w0-1", "c0", Set.of("k0", "k2"), Map.of("k0", 12L, "k2", 13L)));
		assertThat(history.sections()).containsExactly(
				new Section("c0-w0-1:k0", "c0", "k0", 12, 3, -1, Release.NONE, "c0-w0-1", 1),
				new Section("c0-w1-0", "c0", "k1", 5, 4, -1, Release.NONE, "", 3));
		assertThat(history.sections().get(1).isPermit()).isTrue();
	}

}
