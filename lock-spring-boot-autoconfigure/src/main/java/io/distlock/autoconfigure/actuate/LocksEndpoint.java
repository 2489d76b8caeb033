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

package io.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockAdministration;
import io.distlock.LockMode;
import io.distlock.WaitedOnLock;
import io.distlock.store.LockState;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code locks} Actuator endpoint: the locks this instance holds now
 * ({@code GET /actuator/locks}), and what the lock store knows of one key ({@code GET
 * /actuator/locks/{key}}, the key without the key prefix).
 *
 * <p>
 * Lock keys are often customer or order ids, so they are masked as {@code ******} unless
 * {@code management.endpoint.locks.show-values} shows them to the caller, as Spring
 * Boot's {@code env} endpoint masks values; names, fencing tokens, times, modes and
 * permits are always shown. When the key prefix of the template it serves is empty, a key
 * could name any Redis key, so the endpoint refuses to inspect keys (403 Forbidden) and
 * lists only the locks this instance holds. An empty key is refused as a bad request
 * (400).
 *
 * <p>
 * Its default access is read-only, as Spring Boot's access control for endpoints has it
 * ({@code management.endpoint.locks.access}): these operations only read. Force-releasing
 * a lock is a write operation of {@link ForceReleasingLocksEndpoint}, available only with
 * {@code management.endpoint.locks.access=unrestricted}.
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class LocksEndpoint {

	private static final int STATUS_FORBIDDEN = 403;

	private static final int STATUS_BAD_REQUEST = 400;

	private static final int MOST_WAITED_ON = 10;

	private final LockAdministration locks;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * Create an endpoint over the given template, which lists the locks held through
	 * every front door of its settings (the reactive template and leader election among
	 * them). Keys are not inspected while the engine's key prefix is empty.
	 * @param locks the administration of this application's lock engine
	 * @param showValues when to show lock keys unmasked
	 * @param roles the roles of which a user needs one to see keys unmasked when
	 * {@link Show#WHEN_AUTHORIZED}; when empty, any authenticated user
	 */
	public LocksEndpoint(LockAdministration locks, Show showValues, Set<String> roles) {
		this.locks = locks;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Return the locks this instance holds now, the callers of this instance waiting for
	 * one, and the lock names waited for longest since it started.
	 * @param securityContext the caller, who may or may not be shown the keys
	 * @return the held locks, oldest first, and the waiters, longest waiting first
	 */
	@ReadOperation
	public HeldLocksDescriptor locks(SecurityContext securityContext) {
		boolean showKeys = showKeys(securityContext);
		List<HeldLock> held = this.locks.getHeldLocks();
		return new HeldLocksDescriptor(this.locks.getSettings().getInstanceName(),
				held.stream().map((lock) -> new HeldLockDescriptor(lock, mask(lock.key(), showKeys))).toList(),
				this.locks.getWaitingLocks()
					.stream()
					.map((waiting) -> new WaitingLockDescriptor(waiting, mask(waiting.key(), showKeys)))
					.toList(),
				this.locks.getMostWaitedOnLocks(MOST_WAITED_ON));
	}

	/**
	 * Ask the lock store about one key: its exclusive lock, and how many read holds and
	 * permits it has. Refused, without asking the store, when the key is empty or the
	 * template's key prefix is.
	 * @param securityContext the caller, who may or may not be shown the key
	 * @param key the lock key without the key prefix; keys with slashes are accepted
	 * @return a {@link LockStateDescriptor}, or a {@link RefusalDescriptor} with status
	 * 400 when the key is empty and 403 when the key prefix is
	 */
	@ReadOperation
	public WebEndpointResponse<?> lock(SecurityContext securityContext,
			@Selector(match = Match.ALL_REMAINING) String[] key) {
		String joined = String.join("/", key);
		if (joined.isEmpty()) {
			return emptyKey("inspect a lock");
		}
		if (isKeyPrefixEmpty()) {
			return refused("inspect a lock");
		}
		LockState state = this.locks.inspect(joined);
		return new WebEndpointResponse<>(new LockStateDescriptor(mask(joined, showKeys(securityContext)), state));
	}

	LockAdministration administration() {
		return this.locks;
	}

	// The prefix of the engine served, read now: it may be an engine of the
	// application's own.
	boolean isKeyPrefixEmpty() {
		return this.locks.getSettings().getKeyPrefix().isEmpty();
	}

	boolean showKeys(SecurityContext securityContext) {
		return this.showValues.isShown(securityContext, this.roles);
	}

	static String mask(String key, boolean show) {
		return show ? key : SanitizableData.SANITIZED_VALUE;
	}

	static WebEndpointResponse<RefusalDescriptor> refused(String operation) {
		return new WebEndpointResponse<>(new RefusalDescriptor("Refused to " + operation
				+ ": the lock engine's key prefix is empty (distlock.key-prefix, or LockSettings.Builder.keyPrefix of "
				+ "an engine of the application's own), so a key could name any Redis key, not only a lock's. "
				+ "Set a key prefix to " + operation + " through this endpoint."), STATUS_FORBIDDEN);
	}

	static WebEndpointResponse<RefusalDescriptor> emptyKey(String operation) {
		return new WebEndpointResponse<>(new RefusalDescriptor("Refused to " + operation
				+ ": the lock key must not be empty. Name the key after /actuator/locks/, without the key prefix."),
				STATUS_BAD_REQUEST);
	}

	/**
	 * The locks held by this instance, and its callers waiting for one.
	 *
	 * @param instance the name of this instance ({@code distlock.instance-name})
	 * @param locks the held locks, oldest first
	 * @param waiters the callers waiting for a lock, longest waiting first
	 * @param mostWaitedOn the lock names whose locks callers waited for longest in all
	 * since the application started, at most ten
	 */
	public record HeldLocksDescriptor(String instance, List<HeldLockDescriptor> locks,
			List<WaitingLockDescriptor> waiters, List<WaitedOnLock> mostWaitedOn) {

	}

	/**
	 * One lock held by this instance.
	 *
	 * @param key the lock key, without the key prefix; {@code ******} unless shown
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition
	 * @param acquiredAt when it was acquired
	 * @param heldFor how long it has been held
	 * @param leaseRemaining how long its lease lasts without another renewal, as of the
	 * last renewal; {@code null} once it ran out
	 * @param holder the name of the thread that took it
	 * @param autoRenew whether its lease is renewed while held
	 * @param mode how the key is held: {@code EXCLUSIVE}, {@code READ} (shared with other
	 * readers) or {@code WRITE}
	 * @param permits how many holders the key may have at once when this is one of its
	 * permits, {@code 1} for an exclusive, read or write lock
	 */
	public record HeldLockDescriptor(String key, String name, long fencingToken, Instant acquiredAt, Duration heldFor,
			@Nullable Duration leaseRemaining, String holder, boolean autoRenew, LockMode mode, int permits) {

		HeldLockDescriptor(HeldLock lock, String key) {
			this(key, lock.name(), lock.fencingToken(), lock.acquiredAt(), lock.heldFor(), lock.leaseRemaining(),
					lock.holder(), lock.autoRenew(), lock.mode(), lock.permits());
		}

		/**
		 * Describe an exclusive lock.
		 * @param key the lock key, without the key prefix
		 * @param name the lock's name, empty when unnamed
		 * @param fencingToken the fencing token of the acquisition
		 * @param acquiredAt when it was acquired
		 * @param heldFor how long it has been held
		 * @param leaseRemaining how long its lease lasts without another renewal, or
		 * {@code null}
		 * @param holder the name of the thread that took it
		 * @param autoRenew whether its lease is renewed while held
		 */
		public HeldLockDescriptor(String key, String name, long fencingToken, Instant acquiredAt, Duration heldFor,
				@Nullable Duration leaseRemaining, String holder, boolean autoRenew) {
			this(key, name, fencingToken, acquiredAt, heldFor, leaseRemaining, holder, autoRenew, LockMode.EXCLUSIVE,
					1);
		}

	}

	/**
	 * What the lock store knows of one key.
	 *
	 * @param key the lock key, without the key prefix; {@code ******} unless shown
	 * @param held whether its exclusive (or write) lock is held, by anyone
	 * @param remainingLease how long the holder's lease lasts, or {@code null}
	 * @param lastFencingToken the last fencing token handed out for it, or {@code null}
	 * @param fairWaiters how many callers wait for it in arrival order
	 * @param readHolds how many read holds it has, by anyone; {@code 0} for a store
	 * without read/write locks
	 * @param permitHolders how many owners hold one of its permits, by anyone; {@code 0}
	 * for a store without permits
	 * @param holder who holds its exclusive (or write) lock, as the holder described
	 * itself, or {@code null} when nobody does
	 * @param holders every holding the store lists: the exclusive one, read holds and
	 * permits
	 */
	public record LockStateDescriptor(String key, boolean held, @Nullable Duration remainingLease,
			@Nullable Long lastFencingToken, int fairWaiters, int readHolds, int permitHolders,
			@Nullable LockHolderDescriptor holder, List<LockHolderDescriptor> holders) {

		LockStateDescriptor(String key, LockState state) {
			this(key, state.held(), state.remainingLease(), state.lastFencingToken(), state.fairWaiters(),
					state.readHolds(), state.permitHolders(),
					state.holdings().stream().map(LockHolderDescriptor::new).toList());
		}

		private LockStateDescriptor(String key, boolean held, @Nullable Duration remainingLease,
				@Nullable Long lastFencingToken, int fairWaiters, int readHolds, int permitHolders,
				List<LockHolderDescriptor> holders) {
			this(key, held, remainingLease, lastFencingToken, fairWaiters, readHolds, permitHolders,
					holders.stream().filter((holding) -> "exclusive".equals(holding.kind())).findFirst().orElse(null),
					holders);
		}

		/**
		 * Describe a key without read holds or permits.
		 * @param key the lock key, without the key prefix
		 * @param held whether its lock is held, by anyone
		 * @param remainingLease how long the holder's lease lasts, or {@code null}
		 * @param lastFencingToken the last fencing token handed out for it, or
		 * {@code null}
		 * @param fairWaiters how many callers wait for it in arrival order
		 */
		public LockStateDescriptor(String key, boolean held, @Nullable Duration remainingLease,
				@Nullable Long lastFencingToken, int fairWaiters) {
			this(key, held, remainingLease, lastFencingToken, fairWaiters, 0, 0, null, List.of());
		}

	}

	/**
	 * Why an operation was refused.
	 *
	 * @param message what was refused, and why
	 */
	public record RefusalDescriptor(String message) {

	}

}
