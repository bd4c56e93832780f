import { describeBrokerQuickCase } from '../quick-case';

// Nest's MQTT client unsubscribes the reply topic whenever no request waits on it; in a burst of parallel
// requests a first reply can do so before the others' subscriptions are acknowledged, and their replies
// are lost (docs/apps.md): ②-1 then ends at its deadline, never hangs.
describeBrokerQuickCase('nest-mqtt', 'mosquitto', ['mqtt'], { racy: ['②-1'], timeoutMs: 30_000 });
