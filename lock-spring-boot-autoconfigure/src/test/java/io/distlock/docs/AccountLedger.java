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

import java.util.Map;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.annotation.DistributedLocked;
import io.distlock.fencing.jdbc.FencedRowUpdate;
import io.distlock.fencing.jdbc.JdbcFence;
import io.distlock.fencing.redis.RedisFencedWrites;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * The fencing kit's examples (docs/fencing.md): a fence table check, a token column and a
 * fenced write in Redis, each under the lock of the account.
 */
public class AccountLedger {

	private final JdbcFence fence;

	private final FencedRowUpdate rows;

	private final RedisFencedWrites redisWrites;

	private final JdbcTemplate accounts;

	public AccountLedger(JdbcFence fence, FencedRowUpdate rows, RedisFencedWrites redisWrites, JdbcTemplate accounts) {
		this.fence = fence;
		this.rows = rows;
		this.redisWrites = redisWrites;
		this.accounts = accounts;
	}

	@DistributedLocked(key = "'account:' + #id")
	@Transactional
	public void credit(long id, long amount) {
		this.fence.check("account:" + id); // the token of this method's lock, first
		this.accounts.update("UPDATE account SET balance = balance + ? WHERE id = ?", amount, id);
	}

	@DistributedLocked(key = "'account:' + #id")
	public void setBalance(long id, long balance) {
		LockHandle lock = LockContext.require();
		this.rows.update("account", "id", id, Map.of("balance", balance), lock.fencingToken());
	}

	@DistributedLocked(key = "'account:' + #id")
	public void cacheBalance(long id, long balance) {
		long token = LockContext.require().fencingToken();
		this.redisWrites.set("balance:" + id, Long.toString(balance), token);
	}

}
