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

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A storage that checks fencing tokens: a write carrying a token lower than one it
 * already accepted comes from a holder whose lock expired meanwhile, and is rejected.
 */
public class FencedDocumentStore {

	private final JdbcTemplate jdbc;

	public FencedDocumentStore(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Write the document if no write with a newer fencing token was accepted before.
	 * @param id the document id
	 * @param body the new content
	 * @param fencingToken the writer's fencing token
	 * @return whether the write was accepted
	 */
	public boolean write(long id, String body, long fencingToken) {
		// One atomic compare-and-set in the database: the token check and the write
		// cannot be separated by another writer.
		return this.jdbc.update("UPDATE document SET body = ?, fencing_token = ? WHERE id = ? AND fencing_token < ?",
				body, fencingToken, id, fencingToken) == 1;
	}

	public String validate(String body) throws IOException {
		if (body.isBlank()) {
			throw new IOException("An empty document cannot be saved");
		}
		return body;
	}

}
