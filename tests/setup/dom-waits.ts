// Island tests: findBy*/waitFor wait up to 5 s (Testing Library's 1 s is too short on a busy 2-core CI machine).
import { configure } from '@testing-library/react';

// A wait is an upper bound, not a timing assertion: a right answer still ends it at once.
configure({ asyncUtilTimeout: 5_000 });
