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

import java.util.Optional;

import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;

/**
 * The README's concurrency limit: at most five exports at once across all instances.
 */
public class ExportService {

	private final ExportWriter writer;

	public ExportService(ExportWriter writer) {
		this.writer = writer;
	}

	@DistributedLocked(key = "'exports'", permits = 5, ttl = "1m", onFailure = LockFailurePolicy.SKIP)
	public Optional<String> export(String customer) {
		return Optional.of(this.writer.write(customer));
	}

	/**
	 * Writes one export; slow in real life.
	 */
	public interface ExportWriter {

		String write(String customer);

	}

}
