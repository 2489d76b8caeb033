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

package io.distlock.aspectj;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * The application contexts that configured {@link DistributedLockedAspect}, each with the
 * woven beans it created, so that a woven call runs with the configuration of the context
 * that owns its object: several contexts may live in one JVM (the test context cache, a
 * parent and a child), and closing one leaves the others configured. Beans are held
 * weakly, by identity.
 */
final class ContextLockAspects {

	private final List<ContextLockAspect> configured = new CopyOnWriteArrayList<>();

	private final Map<BeanReference, ContextLockAspect> owners = new ConcurrentHashMap<>();

	private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

	void add(ContextLockAspect context) {
		this.configured.add(context);
	}

	void remove(ContextLockAspect context) {
		// Its beans stay bound to it, closed: they fail rather than use another context.
		this.configured.remove(context);
	}

	void bind(Object bean, ContextLockAspect context) {
		expunge();
		this.owners.put(new BeanReference(bean, this.collected), context);
	}

	/**
	 * Return the configuration for a call on the given object: the one of the context
	 * that created it, else the only configured one, else {@code null} if none is.
	 * @throws IllegalStateException if several are, and none created the object
	 */
	@Nullable ContextLockAspect find(Object target, Method method) {
		expunge();
		ContextLockAspect owner = this.owners.get(new BeanReference(target, null));
		if (owner != null) {
			return owner;
		}
		Object[] configured = this.configured.toArray();
		if (configured.length <= 1) {
			return (configured.length == 1) ? (ContextLockAspect) configured[0] : null;
		}
		throw new IllegalStateException("@DistributedLocked method '" + method + "' was called on an object that is "
				+ "not a bean of any of the " + configured.length + " application contexts that configure "
				+ "DistributedLockedAspect (distlock.aop.mode=aspectj), so which context's LockTemplate locks it is "
				+ "unknown: create it as a bean (a prototype bean for one object per use), or run one such context "
				+ "at a time");
	}

	private void expunge() {
		for (Reference<?> reference = this.collected.poll(); reference != null; reference = this.collected.poll()) {
			this.owners.remove(reference);
		}
	}

	/**
	 * A bean, held weakly and compared by identity: equal to a reference to the same
	 * object, or to itself once the object is collected.
	 */
	private static final class BeanReference extends WeakReference<Object> {

		private final int hash;

		BeanReference(Object bean, @Nullable ReferenceQueue<Object> queue) {
			super(bean, queue);
			this.hash = System.identityHashCode(bean);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			if (this == other) {
				return true;
			}
			if (!(other instanceof BeanReference reference) || reference.hash != this.hash) {
				return false;
			}
			Object bean = get();
			return bean != null && bean == reference.get();
		}

		@Override
		public int hashCode() {
			return this.hash;
		}

	}

}
