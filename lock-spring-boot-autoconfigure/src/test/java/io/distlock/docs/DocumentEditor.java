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

package io.distlock.docs;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;

/**
 * The README's {@link LockTemplate} examples.
 */
public class DocumentEditor {

	private final LockTemplate lockTemplate;

	private final FencedDocumentStore store;

	public DocumentEditor(LockTemplate lockTemplate, FencedDocumentStore store) {
		this.lockTemplate = lockTemplate;
		this.store = store;
	}

	public boolean edit(long id, String body) {
		Optional<LockHandle> lock = this.lockTemplate.tryAcquire("document:" + id, Duration.ofSeconds(10),
				Duration.ofSeconds(2));
		if (lock.isEmpty()) {
			return false;
		}
		try (LockHandle handle = lock.get()) {
			return this.store.write(id, body, handle.fencingToken());
		}
	}

	public boolean save(long id, String body) throws IOException {
		LockRequest request = LockRequest.of("document:" + id, Duration.ofSeconds(10), Duration.ofSeconds(2));
		// The callback gets the held lock; what it throws (IOException here) reaches the
		// caller.
		return this.lockTemplate.execute(request, (lock) -> {
			String checked = this.store.validate(body);
			return this.store.write(id, checked, lock.fencingToken());
		});
	}

	public String render(long id) {
		// Released in finally; LockAcquisitionException if the lock stays busy.
		return this.lockTemplate.execute("document:" + id, Duration.ofSeconds(10), Duration.ZERO,
				() -> "rendered " + id);
	}

}
