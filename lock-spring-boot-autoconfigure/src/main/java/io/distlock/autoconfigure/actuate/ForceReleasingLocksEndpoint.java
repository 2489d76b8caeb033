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

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import io.distlock.HeldLock;
import io.distlock.LockAdministration;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code locks} endpoint with force-release ({@code DELETE /actuator/locks/{key}}),
 * the type the auto-configuration creates. Force release is a write operation, so Spring
 * Boot's endpoint access control leaves it out unless the access to the endpoint is
 * unrestricted: {@code management.endpoint.locks.access=unrestricted} (or the deprecated
 * {@code distlock.actuator.force-release-enabled=true}), up to
 * {@code management.endpoints.access.max-permitted}. With the default read-only access,
 * {@code DELETE} is not mapped. The lock is removed whoever holds it, logged at WARN; the
 * next holder gets a higher fencing token as always, so storage that checks tokens still
 * rejects the writes of the holder that lost it.
 *
 * <p>
 * When the key prefix of the template it serves is empty, a key could name any Redis key,
 * of any type: force release is then refused (403 Forbidden) and deletes nothing. An
 * empty key is refused as a bad request (400).
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class ForceReleasingLocksEndpoint extends LocksEndpoint {

	/**
	 * Create an endpoint that can force-release locks, and refuses to while the engine's
	 * key prefix is empty.
	 * @param locks the administration of this application's lock engine
	 * @param showValues when to show lock keys unmasked
	 * @param roles the roles of which a user needs one to see keys unmasked when
	 * {@link Show#WHEN_AUTHORIZED}; when empty, any authenticated user
	 */
	public ForceReleasingLocksEndpoint(LockAdministration locks, Show showValues, Set<String> roles) {
		super(locks, showValues, roles);
	}

	/**
	 * Remove the lock of the given key, whoever holds it, together with the key's read
	 * holds and permits where the store has them: the whole key is free afterwards.
	 * Refused, deleting nothing, when the key is empty or the template's key prefix is.
	 * @param securityContext the caller, who may or may not be shown the key
	 * @param key the lock key without the key prefix
	 * @return a {@link ForceReleaseDescriptor}, or a {@link RefusalDescriptor} with
	 * status 400 when the key is empty and 403 when the key prefix is
	 */
	@DeleteOperation
	public WebEndpointResponse<?> forceRelease(SecurityContext securityContext,
			@Selector(match = Match.ALL_REMAINING) String[] key) {
		String joined = String.join("/", key);
		if (joined.isEmpty()) {
			return emptyKey("force-release a lock");
		}
		if (isKeyPrefixEmpty()) {
			return refused("force-release a lock");
		}
		boolean released = administration().forceRelease(joined);
		return new WebEndpointResponse<>(new ForceReleaseDescriptor(mask(joined, showKeys(securityContext)), released));
	}

	/**
	 * The outcome of a forced release.
	 *
	 * @param key the lock key, without the key prefix; {@code ******} unless shown
	 * @param released whether a lock, a read hold or a permit was removed
	 */
	public record ForceReleaseDescriptor(String key, boolean released) {

	}

}
