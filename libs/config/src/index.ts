export { loadSettings, DEFAULT_SETTINGS, SETTING_ENV, ConfigError, type Settings } from './settings';
