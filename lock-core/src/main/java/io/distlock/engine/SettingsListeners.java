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

package io.distlock.engine;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockListener;

/**
 * The listener a front door tells of lock events: its own, if it has one, then those of
 * the {@link LockSettings}, combined again only when the settings' listeners change.
 */
final class SettingsListeners {

	private final LockSettings settings;

	private final @Nullable LockListener own;

	private volatile Combined combined;

	SettingsListeners(LockSettings settings, @Nullable LockListener own) {
		this.settings = settings;
		this.own = own;
		this.combined = combine(settings.getLockListeners());
	}

	LockListener listener() {
		List<LockListener> current = this.settings.getLockListeners();
		Combined combined = this.combined;
		if (combined.source() != current) {
			combined = combine(current);
			this.combined = combined;
		}
		return combined.listener();
	}

	private Combined combine(List<LockListener> current) {
		List<LockListener> all = new ArrayList<>(current.size() + 1);
		if (this.own != null) {
			all.add(this.own);
		}
		all.addAll(current);
		return new Combined(current, LockListener.composite(all));
	}

	private record Combined(List<LockListener> source, LockListener listener) {

	}

}
