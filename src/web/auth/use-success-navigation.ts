import { useLocation, useNavigate } from 'react-router';
import { nextNavigationState } from '../navigation/navigation-state';

export interface AccountSuccess {
  username: string;
  title: string;
  description: string;
}

/**
 * After an account call succeeds: go on to the next screen with the username and a success
 * toast in navigation state, keeping any answers the visitor carries.
 */
export function useSuccessNavigation() {
  const navigate = useNavigate();
  const location = useLocation();
  return (to: string, { username, title, description }: AccountSuccess, replace = false) =>
    navigate(to, {
      replace,
      state: nextNavigationState(location.state, {
        username,
        toast: { severity: 'success', title, description },
      }),
    });
}
