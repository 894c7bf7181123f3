import { TEST_TIER_ENV } from '../database/test-database';

/** The unit tier's setup file: marks its workers, so that a unit test that opens a database fails. */
process.env[TEST_TIER_ENV] = 'unit';
